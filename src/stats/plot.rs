//! The two charts of `--plot DIR`, drawn as SVG with plotters:
//! `rating_gap.svg` (White's actual and Elo-expected score by rating gap)
//! and `lengths.svg` (the game-length histogram).
//!
//! Input: a `Report`; output: the SVG files. Writes nothing else; errors
//! are I/O errors naming the file.

use std::{io, path::Path};

use plotters::prelude::*;

use super::tables::{LengthRow, RatingGapRow, Report};

/// Plies per bar of the length histogram.
const LENGTH_BIN: u32 = 10;

/// The rating gaps charted: beyond them buckets are thin and noisy.
const GAP_LIMIT: i64 = 800;

/// Size of each chart, pixels.
const SIZE: (u32, u32) = (900, 560);

/// Draws both charts into `dir` (which must exist).
pub fn draw(report: &Report, dir: &Path) -> io::Result<()> {
    let path = dir.join("rating_gap.svg");
    rating_gap(&report.rating_gap, &path).map_err(|e| failed(&path, &*e))?;
    let path = dir.join("lengths.svg");
    lengths(&report.lengths.histogram, &path).map_err(|e| failed(&path, &*e))?;
    Ok(())
}

type Drawn = Result<(), Box<dyn std::error::Error>>;

fn failed(path: &Path, error: &dyn std::error::Error) -> io::Error {
    io::Error::other(format!("{}: {error}", path.display()))
}

fn rating_gap(rows: &[RatingGapRow], path: &Path) -> Drawn {
    let charted: Vec<(f64, f64, f64)> = rows
        .iter()
        .filter(|row| row.gap_from >= -GAP_LIMIT && row.gap_to <= GAP_LIMIT)
        .filter_map(|row| {
            let centre = (row.gap_from + row.gap_to + 1) as f64 / 2.0;
            Some((centre, row.white_score_pct?, row.expected_score_pct?))
        })
        .collect();
    let (low, high) = charted.iter().fold((-200.0f64, 200.0f64), |(low, high), &(x, _, _)| {
        (low.min(x - 25.0), high.max(x + 25.0))
    });
    let root = SVGBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("White's score by rating gap", ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(56)
        .build_cartesian_2d(low..high, 0f64..100f64)?;
    chart
        .configure_mesh()
        .x_desc("WhiteElo - BlackElo (50-point buckets)")
        .y_desc("White's score, %")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()?;
    let expected = charted.iter().map(|&(x, _, e)| (x, e));
    chart
        .draw_series(LineSeries::new(expected, BLUE.stroke_width(2)))?
        .label("expected by the Elo formula")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLUE.stroke_width(2)));
    let actual = charted.iter().map(|&(x, a, _)| (x, a));
    chart
        .draw_series(LineSeries::new(actual.clone(), RED.stroke_width(2)))?
        .label("actual")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], RED.stroke_width(2)));
    chart.draw_series(actual.map(|point| Circle::new(point, 3, RED.filled())))?;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}

fn lengths(rows: &[LengthRow], path: &Path) -> Drawn {
    let mut bins = std::collections::BTreeMap::<u32, u64>::new();
    for row in rows {
        *bins.entry(row.plies - row.plies % LENGTH_BIN).or_default() += row.games;
    }
    let end = bins.keys().next_back().map_or(LENGTH_BIN, |&last| last + LENGTH_BIN);
    let top = bins.values().copied().max().unwrap_or(1).max(1);
    let root = SVGBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Game length", ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(72)
        .build_cartesian_2d(0u32..end, 0u64..top + top / 20)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc(format!("plies ({LENGTH_BIN} per bar)"))
        .y_desc("games")
        .draw()?;
    chart.draw_series(bins.iter().map(|(&start, &games)| {
        Rectangle::new([(start, 0), (start + LENGTH_BIN, games)], BLUE.mix(0.6).filled())
    }))?;
    root.present()?;
    Ok(())
}
