//! Choosing one of `n` things with a primitive die: how a random pick (a stray attack's new
//! target) turns a face into a choice. Written here rather than in a system so that a
//! verifier can check not only the face but which candidate it chose.

use super::Primitive;

/// The smallest primitive die whose sides are a multiple of `n`, so that `(face - 1) % n` is an
/// exact uniform pick; d100 scaled down when none is (a bias of at most one part in 100).
pub fn pick_die(n: u32) -> Primitive {
    Primitive::ALL
        .into_iter()
        .find(|p| p.sides().is_multiple_of(n))
        .unwrap_or(Primitive::D100)
}

/// The index in `0..n` that `face` on `die` picks: `(face - 1) % n` when the die's sides are a
/// multiple of `n`, else `(face - 1) * n / sides`. `None` for a face the die cannot show or
/// an empty choice.
pub fn pick_index(face: u32, n: u32, die: Primitive) -> Option<usize> {
    let sides = die.sides();
    if n == 0 || face == 0 || face > sides {
        return None;
    }
    let i = if sides.is_multiple_of(n) {
        (face - 1) % n
    } else {
        u32::try_from(u64::from(face - 1) * u64::from(n) / u64::from(sides)).ok()?
    };
    usize::try_from(i).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_candidate_is_picked_by_as_many_faces_or_one_fewer() {
        for n in 1..=12 {
            let die = pick_die(n);
            let mut counts = vec![0u32; usize::try_from(n).unwrap_or(0)];
            for face in 1..=die.sides() {
                let i = pick_index(face, n, die).expect("a face of the die");
                counts[i] += 1;
            }
            let (lo, hi) = (counts.iter().min(), counts.iter().max());
            if die.sides().is_multiple_of(n) {
                assert_eq!(lo, hi, "{n}: exact on a {die}: {counts:?}");
            } else {
                // A scaled d100: no candidate gets more than one face more than another.
                assert!(
                    hi.zip(lo).is_some_and(|(h, l)| h - l <= 1),
                    "{n}: {counts:?}"
                );
            }
        }
        // Seven candidates: no die is a multiple of 7, so a d100 is scaled down.
        assert_eq!(pick_die(7), Primitive::D100);
        assert_eq!(pick_index(100, 7, Primitive::D100), Some(6));
        assert_eq!(pick_index(0, 3, Primitive::D6), None);
        assert_eq!(pick_index(3, 0, Primitive::D6), None);
    }
}
