//! `dupes`: duplicate games across any number of inputs.
//!
//! An observer ([`fingerprint::Fingerprint`]) hashes each game's mainline
//! as it is replayed; a sink ([`index::Index`]) keeps a fixed-size entry
//! per game, with the prefixes spilled to a temporary file; at the end
//! [`groups::find`] groups copies and games cut short, [`report`] prints
//! the groups, and [`unique::Store`] writes the input without the
//! duplicates (`--unique`).

pub mod fingerprint;
pub mod groups;
pub mod index;
pub mod report;
pub mod unique;

use hashbrown::HashMap;
use index::{NO_NAME, Names};
use rayon::iter::{IntoParallelRefIterator, ParallelIterator};

use crate::tournament::players;

/// For each name id of `names`, its person's: spellings that `check` takes
/// for one player's ([`players::fold`] and [`players::people`]: case,
/// accents, punctuation, word order, initials) share one; [`NO_NAME`] for
/// a name without letters or digits.
pub fn people(names: &Names) -> Vec<u32> {
    let keys: Vec<Vec<String>> = names
        .spellings
        .par_iter()
        .map(|spelling| {
            let mut key = players::fold(spelling);
            key.sort_unstable();
            key
        })
        .collect();
    let mut folded: HashMap<&[String], u32> = HashMap::new();
    let mut words: Vec<Vec<String>> = Vec::new();
    let spellings: Vec<u32> = keys
        .iter()
        .map(|key| {
            if key.is_empty() {
                return NO_NAME;
            }
            *folded.entry(key).or_insert_with(|| {
                words.push(key.clone());
                (words.len() - 1) as u32
            })
        })
        .collect();
    drop(folded);
    let person = players::people(words);
    spellings
        .into_iter()
        .map(|id| if id == NO_NAME { id } else { person[id as usize] as u32 })
        .collect()
}
