//! "Did you mean": the known word closest to one typed wrong (an action, an argument's name),
//! so that an error can name the thing that would have worked. Pure; it only compares
//! strings.
//!
//! The distance is the optimal string alignment distance: insertions, deletions,
//! substitutions and swaps of two neighbouring letters each count one, the four slips a
//! typist makes most (`atack`, `taget`, `attakc`). A handful of candidates of a few letters
//! each needs no crate: the table is at most a few hundred cells.

/// The candidate closest to `typed`, if it is close enough to be a slip rather than another
/// word: at most one edit per three letters typed (at least one, at most three). Case does
/// not count. Ties go to the candidate that comes first in `candidates`.
pub fn closest<'a>(typed: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let typed = typed.to_lowercase();
    let limit = (typed.chars().count() / 3).clamp(1, 3);
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = distance(&typed, &c.to_lowercase());
        if d == 0 || d > limit {
            continue;
        }
        if best.is_none_or(|(b, _)| d < b) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// Optimal string alignment distance between `a` and `b`, by characters.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // d[i][j]: the distance between the first i characters of a and the first j of b.
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    if let Some(first) = d.first_mut() {
        for (j, cell) in first.iter_mut().enumerate() {
            *cell = j;
        }
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_slip_counts_one() {
        for (a, b, want) in [
            ("attack", "attack", 0),
            ("atack", "attack", 1),
            ("attakc", "attack", 1),
            ("attacks", "attack", 1),
            ("attaxk", "attack", 1),
            ("fly", "dash", 4),
            ("", "move", 4),
        ] {
            assert_eq!(distance(a, b), want, "{a} / {b}");
        }
    }

    #[test]
    fn only_a_close_word_is_suggested() {
        let actions = ["attack", "auxiliary", "check", "dash", "end_turn", "move"];
        assert_eq!(closest("atack", actions), Some("attack"));
        assert_eq!(closest("End_Trun", actions), Some("end_turn"));
        assert_eq!(closest("mvoe", actions), Some("move"));
        assert_eq!(closest("fly", actions), None);
        assert_eq!(
            closest("attack", actions),
            None,
            "the word itself is no suggestion"
        );
        assert_eq!(closest("x", ["y", "z"]), Some("y"), "ties go to the first");
    }
}
