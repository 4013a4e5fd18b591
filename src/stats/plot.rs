//! The charts of `--plot DIR`, drawn as SVG with plotters:
//! `rating_gap.svg` (White's actual score with its 95% confidence band,
//! and the Elo-expected score, by rating gap), `lengths.svg` (the
//! game-length histogram, up to the 99.9th percentile with the longest
//! games in one overflow bar), `by_time_control.svg` and `by_year.svg`
//! (White's score, with its 95% interval, and the draw rate).
//!
//! Every bar and point carries the number of games it stands for: an SVG
//! `<title>` (a tooltip in a browser) over it, and on the bars a label.
//!
//! Input: a `Report`; output: the SVG files. Writes nothing else; errors
//! are I/O errors naming the file.

use std::{collections::BTreeMap, io, path::Path};

use plotters::{
    coord::Shift,
    prelude::*,
    style::text_anchor::{HPos, Pos, VPos},
};

use super::{
    Tally,
    tables::{LengthRow, MonthRow, RatingGapRow, Report, TimeControlRow, confidence_interval},
};

/// Plies per bar of the length histogram.
const LENGTH_BIN: u32 = 10;

/// The length histogram's axis ends at this quantile of the lengths
/// (per mille): the few longer games go into one overflow bar, so that a
/// single 600-ply game does not squeeze the rest into half the chart.
const LENGTH_QUANTILE: u64 = 999;

/// The rating gaps charted: beyond them buckets are thin and noisy.
const GAP_LIMIT: i64 = 800;

/// Size of each chart, pixels.
const SIZE: (u32, u32) = (900, 560);

/// Years with fewer decided games are left out of `by_year.svg`: a
/// database's few games of the 18th century would stretch the axis over
/// a century of noise (they stay in by_month.csv).
const MIN_YEAR_GAMES: u64 = 10;

/// The colour of White's score in every chart.
const SCORE: RGBColor = RED;

/// The colour of the draw rate.
const DRAWS: RGBColor = RGBColor(90, 90, 90);

/// Draws every chart into `dir` (which must exist).
pub fn draw(report: &Report, dir: &Path) -> io::Result<()> {
    let charts: [(&str, &Chart); 4] = [
        ("rating_gap.svg", &|area| rating_gap(&report.rating_gap, area)),
        ("lengths.svg", &|area| lengths(&report.lengths.histogram, area)),
        ("by_time_control.svg", &|area| by_time_control(&report.time_controls, area)),
        ("by_year.svg", &|area| by_year(&report.by_month, area)),
    ];
    for (name, chart) in charts {
        let path = dir.join(name);
        svg_file(&path, chart).map_err(|e| failed(&path, &*e))?;
    }
    Ok(())
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// Draws one chart on an area, returning its tooltips.
type Chart<'r> = dyn Fn(&Area) -> Tips + 'r;

type Drawn = Result<(), Box<dyn std::error::Error>>;

/// What a chart drew, for its tooltips: each a rectangle in pixels and
/// its text.
type Tips = Result<Vec<Tip>, Box<dyn std::error::Error>>;

/// A tooltip: an invisible rectangle with a `<title>`, laid over what it
/// describes (plotters writes no `<title>`, so they are added to its
/// output).
struct Tip {
    /// Upper-left corner, pixels.
    from: (i32, i32),
    /// Lower-right corner, pixels.
    to: (i32, i32),
    text: String,
}

fn failed(path: &Path, error: &dyn std::error::Error) -> io::Error {
    io::Error::other(format!("{}: {error}", path.display()))
}

/// Draws one chart into a string, adds its tooltips and writes the file.
fn svg_file(path: &Path, chart: &Chart) -> Drawn {
    let mut svg = String::new();
    let tips = {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE)?;
        let tips = chart(&root)?;
        root.present()?;
        tips
    };
    let overlay: String = tips
        .iter()
        .map(|tip| {
            let (x, y) = tip.from;
            let (width, height) = ((tip.to.0 - x).max(1), (tip.to.1 - y).max(1));
            format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{width}\" height=\"{height}\" fill=\"#000\" \
                 fill-opacity=\"0\"><title>{}</title></rect>\n",
                escape(&tip.text)
            )
        })
        .collect();
    // Last in the document, so that they are on top and take the pointer.
    let end = svg.rfind("</svg>").unwrap_or(svg.len());
    svg.insert_str(end, &overlay);
    std::fs::write(path, svg)?;
    Ok(())
}

/// Escapes text for SVG.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// A tip over the point `centre` (pixels), `radius` around it.
fn point_tip(centre: (i32, i32), radius: i32, text: String) -> Tip {
    Tip {
        from: (centre.0 - radius, centre.1 - radius),
        to: (centre.0 + radius, centre.1 + radius),
        text,
    }
}

/// White's score and its 95% interval from counts, %: `None` without a
/// decided game (the interval is `None` under two).
fn score_with_interval(wins: u64, draws: u64, losses: u64) -> Option<(f64, Option<(f64, f64)>)> {
    let tally = Tally {
        games: wins + draws + losses,
        white_wins: wins,
        draws,
        black_wins: losses,
        unfinished: 0,
    };
    let decided = tally.decided();
    (decided > 0).then(|| {
        let score = tally.white_points_x2() as f64 * 50.0 / decided as f64;
        (score, confidence_interval(&tally))
    })
}

fn rating_gap(rows: &[RatingGapRow], root: &Area) -> Tips {
    struct Bucket {
        centre: f64,
        actual: f64,
        expected: f64,
        interval: Option<(f64, f64)>,
        decided: u64,
        label: String,
    }
    let charted: Vec<Bucket> = rows
        .iter()
        .filter(|row| row.gap_from >= -GAP_LIMIT && row.gap_to <= GAP_LIMIT)
        .filter_map(|row| {
            let (actual, interval) =
                score_with_interval(row.white_wins, row.draws, row.black_wins)?;
            Some(Bucket {
                centre: (row.gap_from + row.gap_to + 1) as f64 / 2.0,
                actual,
                expected: row.expected_score_pct?,
                interval,
                decided: row.decided,
                label: format!("{}..{}", row.gap_from, row.gap_to),
            })
        })
        .collect();
    let (low, high) = charted.iter().fold((-200.0f64, 200.0f64), |(low, high), b| {
        (low.min(b.centre - 25.0), high.max(b.centre + 25.0))
    });
    let mut chart = ChartBuilder::on(root)
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
    // The band: the upper bounds left to right, then the lower ones back.
    let with_interval: Vec<(f64, (f64, f64))> =
        charted.iter().filter_map(|b| Some((b.centre, b.interval?))).collect();
    let band: Vec<(f64, f64)> = with_interval
        .iter()
        .map(|&(x, (_, high))| (x, high))
        .chain(with_interval.iter().rev().map(|&(x, (low, _))| (x, low)))
        .collect();
    chart
        .draw_series(std::iter::once(Polygon::new(band, SCORE.mix(0.15).filled())))?
        .label("actual, 95% confidence interval")
        .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 20, y + 5)], SCORE.mix(0.15).filled()));
    let expected = charted.iter().map(|b| (b.centre, b.expected));
    chart
        .draw_series(LineSeries::new(expected, BLUE.stroke_width(2)))?
        .label("expected by the Elo formula")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLUE.stroke_width(2)));
    let actual: Vec<(f64, f64)> = charted.iter().map(|b| (b.centre, b.actual)).collect();
    chart
        .draw_series(LineSeries::new(actual.clone(), SCORE.stroke_width(2)))?
        .label("actual")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], SCORE.stroke_width(2)));
    chart.draw_series(actual.iter().map(|&point| Circle::new(point, 3, SCORE.filled())))?;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    Ok(charted
        .iter()
        .map(|b| {
            let interval = b
                .interval
                .map_or_else(String::new, |(low, high)| format!(" (95% CI {low:.1}-{high:.1})"));
            let text = format!(
                "gap {}: n = {} decided games, White {:.1}%{interval}, expected {:.1}%",
                b.label, b.decided, b.actual, b.expected
            );
            point_tip(chart.backend_coord(&(b.centre, b.actual)), 6, text)
        })
        .collect())
}

/// The length histogram's bars: `(first plies, games)` of each bin of
/// [`LENGTH_BIN`] plies up to the [`LENGTH_QUANTILE`] of the lengths,
/// the longer games in one last bin; and where that last bin starts when
/// it holds them (`None` when no game is past the quantile's bin).
fn length_bins(rows: &[LengthRow]) -> (BTreeMap<u32, u64>, Option<u32>) {
    let total: u64 = rows.iter().map(|r| r.games).sum();
    // The nearest-rank quantile: the length reached by that share of the
    // games, counted from the shortest (rows are by length).
    let rank = (total * LENGTH_QUANTILE).div_ceil(1000);
    let mut seen = 0;
    let quantile = rows
        .iter()
        .find(|r| {
            seen += r.games;
            seen >= rank
        })
        .map_or(0, |r| r.plies);
    let overflow = quantile - quantile % LENGTH_BIN + LENGTH_BIN;
    let longest = rows.last().map_or(0, |r| r.plies);
    let overflow = (longest >= overflow).then_some(overflow);
    let mut bins = BTreeMap::<u32, u64>::new();
    for row in rows {
        let bin = row.plies - row.plies % LENGTH_BIN;
        *bins.entry(overflow.map_or(bin, |o| bin.min(o))).or_default() += row.games;
    }
    (bins, overflow)
}

fn lengths(rows: &[LengthRow], root: &Area) -> Tips {
    let (bins, overflow) = length_bins(rows);
    let end = bins.keys().next_back().map_or(LENGTH_BIN, |&last| last + LENGTH_BIN);
    let top = bins.values().copied().max().unwrap_or(1).max(1);
    let games: u64 = bins.values().sum();
    let caption = format!("Game length ({games} valid games)");
    let mut chart = ChartBuilder::on(root)
        .caption(caption, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(72)
        // Headroom for the count over the highest bar.
        .build_cartesian_2d(0u32..end, 0u64..top + top / 8)?;
    let x_desc = match overflow {
        Some(start) => format!("plies ({LENGTH_BIN} per bar; the last bar: {start} or more)"),
        None => format!("plies ({LENGTH_BIN} per bar)"),
    };
    chart.configure_mesh().disable_x_mesh().x_desc(x_desc).y_desc("games").draw()?;
    let bar = |start: u32| {
        let colour = if Some(start) == overflow { DRAWS.mix(0.6) } else { BLUE.mix(0.6) };
        colour.filled()
    };
    chart.draw_series(bins.iter().map(|(&start, &games)| {
        Rectangle::new([(start, 0), (start + LENGTH_BIN, games)], bar(start))
    }))?;
    // The count over each bar, written upwards from its top: bars are
    // too narrow for a count written across.
    let label = ("sans-serif", 11)
        .into_font()
        .transform(FontTransform::Rotate270)
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (&start, &games) in bins.iter().filter(|(_, games)| **games > 0) {
        let (x, y) = chart.backend_coord(&(start + LENGTH_BIN / 2, games));
        root.draw(&Text::new(games.to_string(), (x, y - 3), label.clone()))?;
    }
    Ok(bins
        .iter()
        .map(|(&start, &games)| {
            let range = if Some(start) == overflow {
                format!("{start}+ plies")
            } else {
                format!("{start}-{} plies", start + LENGTH_BIN - 1)
            };
            Tip {
                from: chart.backend_coord(&(start, games)),
                to: chart.backend_coord(&(start + LENGTH_BIN, 0)),
                text: format!("{range}: n = {games} games"),
            }
        })
        .collect())
}

/// One category of a score chart: its name, White's score and interval,
/// the draw rate, and its decided games.
struct Category {
    name: String,
    score: f64,
    interval: Option<(f64, f64)>,
    draw_pct: f64,
    decided: u64,
}

impl Category {
    /// The tooltip: `2021: n = 28702 decided games, White 51.2% (95% CI
    /// 50.6-51.8), draws 6.8%`.
    fn describe(&self) -> String {
        let interval = self
            .interval
            .map_or_else(String::new, |(low, high)| format!(" (95% CI {low:.1}-{high:.1})"));
        format!(
            "{}: n = {} decided games, White {:.1}%{interval}, draws {:.1}%",
            self.name, self.decided, self.score, self.draw_pct
        )
    }

    fn of(name: String, wins: u64, draws: u64, losses: u64) -> Option<Category> {
        let (score, interval) = score_with_interval(wins, draws, losses)?;
        let decided = wins + draws + losses;
        let draw_pct = draws as f64 * 100.0 / decided as f64;
        Some(Category { name, score, interval, draw_pct, decided })
    }
}

fn by_time_control(rows: &[TimeControlRow], root: &Area) -> Tips {
    let categories: Vec<Category> = rows
        .iter()
        .filter_map(|r| Category::of(r.class.to_owned(), r.white_wins, r.draws, r.black_wins))
        .collect();
    score_chart("White's score and draws by time control", "time control", &categories, root)
}

fn by_year(rows: &[MonthRow], root: &Area) -> Tips {
    let mut years = BTreeMap::<u32, (u64, u64, u64)>::new();
    for row in rows {
        // Games without a known year are no point on a time axis.
        if let Some(year) = row.year {
            let tally = years.entry(year).or_default();
            tally.0 += row.white_wins;
            tally.1 += row.draws;
            tally.2 += row.black_wins;
        }
    }
    let points: Vec<(f64, Category)> = years
        .into_iter()
        .filter(|(_, (w, d, l))| w + d + l >= MIN_YEAR_GAMES)
        .filter_map(|(year, (w, d, l))| {
            Some((f64::from(year), Category::of(year.to_string(), w, d, l)?))
        })
        .collect();
    let Some((first, last)) = points.first().zip(points.last()).map(|(f, l)| (f.0, l.0)) else {
        return score_chart("White's score and draws by year", "year", &[], root);
    };
    let mut chart = ChartBuilder::on(root)
        .caption("White's score and draws by year", ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(56)
        // Room above 100% for the legend, clear of the lines.
        .build_cartesian_2d(first - 0.5..last + 0.5, 0f64..125f64)?;
    chart
        .configure_mesh()
        .x_desc(format!("year (years of {MIN_YEAR_GAMES} or more decided games)"))
        .y_desc("% of the decided games")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| if *y <= 100.0 { format!("{y:.0}") } else { String::new() })
        .draw()?;
    // A year is a point on a time axis: lines with the score's 95% band,
    // broken where years are missing, so that no line or band spans a gap
    // the data do not cover.
    let mut runs: Vec<&[(f64, Category)]> = Vec::new();
    let mut start = 0;
    for i in 1..=points.len() {
        if i == points.len() || points[i].0 != points[i - 1].0 + 1.0 {
            runs.push(&points[start..i]);
            start = i;
        }
    }
    // Empty series carry the legend, once for all the runs.
    let band_style = SCORE.mix(0.15).filled();
    chart
        .draw_series(LineSeries::new(Vec::<(f64, f64)>::new(), band_style))?
        .label("White's score, 95% confidence interval")
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 20, y + 5)], band_style));
    chart
        .draw_series(LineSeries::new(Vec::<(f64, f64)>::new(), SCORE.stroke_width(2)))?
        .label("White's score")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], SCORE.stroke_width(2)));
    chart
        .draw_series(LineSeries::new(Vec::<(f64, f64)>::new(), DRAWS.stroke_width(2)))?
        .label("draws")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], DRAWS.stroke_width(2)));
    for run in runs {
        let intervals: Vec<(f64, (f64, f64))> =
            run.iter().filter_map(|(x, c)| Some((*x, c.interval?))).collect();
        let band: Vec<(f64, f64)> = intervals
            .iter()
            .map(|&(x, (_, high))| (x, high))
            .chain(intervals.iter().rev().map(|&(x, (low, _))| (x, low)))
            .collect();
        chart.draw_series(std::iter::once(Polygon::new(band, band_style)))?;
        let score: Vec<(f64, f64)> = run.iter().map(|(x, c)| (*x, c.score)).collect();
        chart.draw_series(LineSeries::new(score.clone(), SCORE.stroke_width(2)))?;
        chart.draw_series(score.iter().map(|&point| Circle::new(point, 2, SCORE.filled())))?;
        let draws = run.iter().map(|(x, c)| (*x, c.draw_pct));
        chart.draw_series(LineSeries::new(draws, DRAWS.stroke_width(2)))?;
    }
    chart.draw_series(std::iter::once(PathElement::new(
        [(first - 0.5, 50.0), (last + 0.5, 50.0)],
        BLACK.mix(0.4).stroke_width(1),
    )))?;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    Ok(points
        .iter()
        .map(|(x, c)| point_tip(chart.backend_coord(&(*x, c.score)), 5, c.describe()))
        .collect())
}

/// Two bars per category: White's score with its 95% interval as a
/// whisker, and the draw rate; the category's name and its number of
/// decided games under them.
fn score_chart(caption: &str, what: &str, categories: &[Category], root: &Area) -> Tips {
    let n = categories.len().max(1) as f64;
    let mut chart = ChartBuilder::on(root)
        .caption(caption, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(56)
        .y_label_area_size(56)
        // Room above 100% for the legend, clear of the bars.
        .build_cartesian_2d(-0.5f64..n - 0.5, 0f64..125f64)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .x_desc(format!("{what} (n: decided games)"))
        .y_desc("% of the decided games")
        .y_label_formatter(&|y| if *y <= 100.0 { format!("{y:.0}") } else { String::new() })
        .draw()?;
    let width = 0.35;
    let at = |i: usize| i as f64;
    chart
        .draw_series(categories.iter().enumerate().map(|(i, c)| {
            Rectangle::new([(at(i) - width, 0.0), (at(i), c.score)], SCORE.mix(0.6).filled())
        }))?
        .label("White's score, with its 95% confidence interval")
        .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 20, y + 5)], SCORE.mix(0.6).filled()));
    chart.draw_series(categories.iter().enumerate().filter_map(|(i, c)| {
        let (low, high) = c.interval?;
        let x = at(i) - width / 2.0;
        Some(PathElement::new([(x, low), (x, high)], BLACK.stroke_width(2)))
    }))?;
    chart
        .draw_series(categories.iter().enumerate().map(|(i, c)| {
            Rectangle::new([(at(i), 0.0), (at(i) + width, c.draw_pct)], DRAWS.mix(0.5).filled())
        }))?
        .label("draws")
        .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 20, y + 5)], DRAWS.mix(0.5).filled()));
    // 50%: where White's score would be without the first move.
    chart.draw_series(std::iter::once(PathElement::new(
        [(-0.5, 50.0), (n - 0.5, 50.0)],
        BLACK.mix(0.4).stroke_width(1),
    )))?;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    // Category names and counts under the axis, centred on their bars:
    // the mesh's labels would fall between categories.
    let style = ("sans-serif", 13).into_font().color(&BLACK).pos(Pos::new(HPos::Center, VPos::Top));
    for (i, c) in categories.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(at(i), 0.0));
        root.draw(&Text::new(c.name.clone(), (x, y + 6), style.clone()))?;
        root.draw(&Text::new(format!("n={}", c.decided), (x, y + 22), style.clone()))?;
    }
    Ok(categories
        .iter()
        .enumerate()
        .map(|(i, c)| Tip {
            from: chart.backend_coord(&(at(i) - width, 100.0)),
            to: chart.backend_coord(&(at(i) + width, 0.0)),
            text: c.describe(),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(plies: u32, games: u64) -> LengthRow {
        LengthRow { plies, games, pct: None, cumulative_pct: None }
    }

    #[test]
    fn the_length_axis_ends_at_the_quantile_with_an_overflow_bar() {
        // 1,000 games of 40-89 plies, then one of 600: the axis ends at
        // 90, the 600-ply game in the overflow bar that starts there.
        let mut rows: Vec<LengthRow> = (40..90).map(|p| row(p, 20)).collect();
        rows.push(row(600, 1));
        let (bins, overflow) = length_bins(&rows);
        assert_eq!(overflow, Some(90));
        assert_eq!(bins.keys().next_back(), Some(&90));
        assert_eq!(bins[&90], 1);
        assert_eq!(bins.values().sum::<u64>(), 1001);
        // No game past the quantile's bin: no overflow bar.
        let (bins, overflow) = length_bins(&rows[..50]);
        assert_eq!((overflow, bins.keys().next_back()), (None, Some(&80)));
    }
}
