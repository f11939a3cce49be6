//! Tests of the dice engine through its public face: notation, rolling and the fair stream.
//! The stream's own rejection path is tested next to it, in `stream.rs`.

use proptest::prelude::*;

use super::*;

fn parse(s: &str) -> DiceExpr {
    DiceExpr::parse(s).expect("test expression should parse")
}

fn roll_scripted(s: &str, faces: &[u32]) -> (Roll, ScriptedDice) {
    let mut dice = ScriptedDice::new(faces.to_vec());
    let rolled = roll(&parse(s), &mut dice).expect("script should cover the roll");
    (rolled, dice)
}

fn kept(r: &Roll) -> Vec<bool> {
    r.dice.iter().map(|d| d.kept).collect()
}

fn dice(count: u32, die: DieKind, keep: Option<Keep>, burst: bool) -> TermKind {
    TermKind::Dice(DiceTerm {
        count,
        die,
        keep,
        burst,
    })
}

fn plus(kind: TermKind) -> Term {
    Term {
        negative: false,
        kind,
    }
}

fn minus(kind: TermKind) -> Term {
    Term {
        negative: true,
        kind,
    }
}

// ---------------------------------------------------------------------------------------
// Notation

#[test]
fn notation_reads_every_feature_and_writes_it_canonically() {
    let cases = [
        ("3d10kh1+2", "3d10kh1+2"),
        ("3D10KH1 + 2", "3d10kh1+2"),
        ("d20", "1d20"),
        ("  d20  ", "1d20"),
        ("2d8s-1!-3", "2d8s-1!-3"),
        ("d10/2", "1d10/2"),
        ("D10/4", "1d10/4"),
        ("d8s+0", "1d8s+0"),
        ("d8S-0", "1d8s+0"),
        ("-d4 + 1d8s+1+2", "-1d4+1d8s+1+2"),
        ("+5", "5"),
        ("- 0", "-0"),
        ("4d6kl3!", "4d6kl3!"),
        ("100d100kh100", "100d100kh100"),
        ("1d2+1d5-1000000", "1d2+1d5-1000000"),
        ("007", "7"),
    ];
    for (written, canonical) in cases {
        assert_eq!(parse(written).to_string(), canonical, "{written}");
        assert_eq!(parse(canonical), parse(written), "{written}");
    }
}

#[test]
fn a_step_followed_by_a_modifier_is_two_terms() {
    assert_eq!(
        parse("1d8s+1+2"),
        DiceExpr {
            terms: vec![
                plus(dice(
                    1,
                    DieKind::Stepped {
                        base: Primitive::D8,
                        steps: 1
                    },
                    None,
                    false
                )),
                plus(TermKind::Flat(2)),
            ]
        }
    );
}

#[test]
fn notation_builds_the_expected_tree() {
    assert_eq!(
        parse("-2d20kl1!+d10/3-4"),
        DiceExpr {
            terms: vec![
                minus(dice(
                    2,
                    DieKind::Plain(Primitive::D20),
                    Some(Keep::Lowest(1)),
                    true
                )),
                plus(dice(1, DieKind::Divided { divisor: 3 }, None, false)),
                minus(TermKind::Flat(4)),
            ]
        }
    );
}

#[test]
fn hand_built_oddities_still_print_as_the_same_sum() {
    let e = DiceExpr {
        terms: vec![plus(TermKind::Flat(3)), plus(TermKind::Flat(-5))],
    };
    assert_eq!(e.to_string(), "3-5");
    let e = DiceExpr {
        terms: vec![minus(TermKind::Flat(i64::MIN))],
    };
    assert_eq!(e.to_string(), "9223372036854775808");
    assert_eq!(DiceExpr { terms: vec![] }.to_string(), "0");
}

/// Parses `input`, expecting a failure at byte `at`, and returns the error.
fn parse_error(input: &str, at: usize) -> ParseError {
    let err = DiceExpr::parse(input).expect_err("input should be refused");
    assert_eq!(err.offset(), at, "offset for {input:?}: {err}");
    assert_eq!(err.input(), input);
    err
}

#[test]
fn parse_errors_say_where_and_why() {
    use ParseError as E;
    assert!(matches!(parse_error("", 0), E::Empty { .. }));
    assert!(matches!(parse_error("   ", 0), E::Empty { .. }));
    assert!(matches!(
        parse_error("3d7", 2),
        E::UnknownDie { sides: 7, .. }
    ));
    assert!(matches!(
        parse_error("1d6+2d3", 6),
        E::UnknownDie { sides: 3, .. }
    ));
    assert!(matches!(parse_error("0d6", 0), E::ZeroCount { .. }));
    assert!(matches!(parse_error("1d6 + 0d6", 6), E::ZeroCount { .. }));
    assert!(matches!(
        parse_error("101d6", 0),
        E::CountTooBig { count: 101, .. }
    ));
    assert!(matches!(
        parse_error("2d6kh3", 3),
        E::KeepMoreThanCount {
            keep: 3,
            count: 2,
            ..
        }
    ));
    assert!(matches!(
        parse_error("d20kl2", 3),
        E::KeepMoreThanCount {
            keep: 2,
            count: 1,
            ..
        }
    ));
    assert!(matches!(parse_error("2d6kh0", 5), E::KeepZero { .. }));
    assert!(matches!(parse_error("3d6k1", 4), E::BadKeep { .. }));
    assert!(matches!(parse_error("3d6kh", 5), E::BadKeep { .. }));
    assert!(matches!(parse_error("d8s+11", 3), E::BadStep { .. }));
    assert!(matches!(parse_error("d8s-11", 3), E::BadStep { .. }));
    assert!(matches!(parse_error("d8s1", 3), E::BadStep { .. }));
    assert!(matches!(parse_error("d8s+", 3), E::BadStep { .. }));
    assert!(matches!(
        parse_error("d100s+1", 1),
        E::NotOnLadder { sides: 100, .. }
    ));
    assert!(matches!(
        parse_error("2d5s-1", 2),
        E::NotOnLadder { sides: 5, .. }
    ));
    assert!(matches!(parse_error("d10/5", 4), E::BadDivisor { .. }));
    assert!(matches!(parse_error("d10/1", 4), E::BadDivisor { .. }));
    assert!(matches!(parse_error("d10/", 4), E::BadDivisor { .. }));
    assert!(matches!(
        parse_error("d8/2", 1),
        E::DividedNotD10 { sides: 8, .. }
    ));
    assert!(matches!(
        parse_error("2d10/2!", 6),
        E::BurstOnDivided { .. }
    ));
    assert!(matches!(
        parse_error("1d6x", 3),
        E::Trailing { found: 'x', .. }
    ));
    assert!(matches!(
        parse_error("1d6 2", 4),
        E::Trailing { found: '2', .. }
    ));
    assert!(matches!(
        parse_error("3d6!kh1", 4),
        E::Trailing { found: 'k', .. }
    ));
    assert!(matches!(
        parse_error("1d6 é", 4),
        E::Trailing { found: 'é', .. }
    ));
    assert!(matches!(parse_error("1d6+", 4), E::ExpectedTerm { .. }));
    assert!(matches!(parse_error("1d6 +  ", 7), E::ExpectedTerm { .. }));
    assert!(matches!(parse_error("1d6+-2", 4), E::ExpectedTerm { .. }));
    assert!(matches!(parse_error("-", 1), E::ExpectedTerm { .. }));
    assert!(matches!(parse_error("x", 0), E::ExpectedTerm { .. }));
    assert!(matches!(parse_error("3d", 2), E::MissingSides { .. }));
    assert!(matches!(parse_error("d 6", 1), E::MissingSides { .. }));
    assert!(matches!(
        parse_error("99999999999999999999d6", 0),
        E::Overflow { .. }
    ));
    assert!(matches!(
        parse_error("1d6+18446744073709551616", 4),
        E::Overflow { .. }
    ));
    assert!(matches!(
        parse_error("1d6-1000001", 4),
        E::FlatTooBig {
            value: 1_000_001,
            ..
        }
    ));
}

#[test]
fn parse_error_messages_point_at_a_column() {
    assert_eq!(
        parse_error("3d7", 2).to_string(),
        "at column 3 of `3d7`: d7 is not a die; use d2 d4 d5 d6 d8 d10 d12 d20 d100"
    );
    assert_eq!(
        parse_error("2d6kh3", 3).to_string(),
        "at column 4 of `2d6kh3`: cannot keep 3 of only 2 dice"
    );
    assert_eq!(
        parse_error("1d10/2!", 6).to_string(),
        "at column 7 of `1d10/2!`: a divided die cannot burst"
    );
}

// ---------------------------------------------------------------------------------------
// Rolling with scripted faces

#[test]
fn three_d10_keep_highest_plus_two() {
    let (r, _) = roll_scripted("3d10kh1+2", &[4, 9, 7]);
    assert_eq!(r.total, 11);
    assert_eq!(r.terms, vec![9, 2]);
    assert_eq!(kept(&r), vec![false, true, false]);
    assert_eq!(r.expr, "3d10kh1+2");
    assert_eq!(r.faces_of(0), vec![4, 9, 7]);
}

#[test]
fn mist_deadly_two_d10_take_higher() {
    let (r, _) = roll_scripted("2d10kh1", &[3, 8]);
    assert_eq!(r.total, 8);
    assert_eq!(kept(&r), vec![false, true]);
}

#[test]
fn divided_dice_follow_the_printed_table() {
    for (expr, face, value) in [("d10/2", 9, 4), ("d10/3", 10, 4), ("d10/4", 1, 1)] {
        let (r, dice) = roll_scripted(expr, &[face]);
        assert_eq!(r.total, value, "{expr} on {face}");
        assert_eq!(r.dice[0].face, face);
        assert_eq!(r.dice[0].value, value);
        assert_eq!(dice.drawn(), &[Primitive::D10]);
    }
}

#[test]
fn division_table_is_the_printed_one() {
    let table: [(u8, [i64; 10]); 3] = [
        (2, [1, 1, 2, 2, 3, 3, 4, 4, 4, 5]),
        (3, [1, 1, 1, 2, 2, 2, 3, 3, 3, 4]),
        (4, [1, 1, 1, 1, 2, 2, 2, 2, 3, 3]),
    ];
    for (divisor, values) in table {
        for (face, value) in (1..=10).zip(values) {
            assert_eq!(
                DieKind::divided_value(divisor, face),
                Some(value),
                "/{divisor} {face}"
            );
        }
        assert_eq!(DieKind::divided_value(divisor, 0), None);
        assert_eq!(DieKind::divided_value(divisor, 11), None);
    }
    assert_eq!(DieKind::divided_value(5, 5), None);
    assert_eq!(DieKind::divided_value(0, 5), None);
}

#[test]
fn bursting_die_adds_the_next_draw() {
    let (r, dice) = roll_scripted("1d6!", &[6, 6, 2]);
    assert_eq!(r.total, 14);
    assert_eq!(
        r.dice.iter().map(|d| d.burst).collect::<Vec<_>>(),
        vec![true, true, false]
    );
    assert_eq!(
        r.dice.iter().map(|d| d.from_burst).collect::<Vec<_>>(),
        vec![false, true, true]
    );
    assert!(dice.unused().is_empty());
}

#[test]
fn bursts_are_drawn_right_after_their_die() {
    let (r, _) = roll_scripted("2d4!+1d6", &[4, 1, 3, 5]);
    assert_eq!(r.faces_of(0), vec![4, 1, 3]);
    assert_eq!(r.faces_of(1), vec![5]);
    assert_eq!(r.terms, vec![8, 5]);
    assert_eq!(
        r.dice.iter().map(|d| d.from_burst).collect::<Vec<_>>(),
        [false, true, false, false]
    );
}

#[test]
fn burst_stops_at_the_cap_and_the_capped_die_is_not_marked() {
    let cap = usize::try_from(BURST_DEPTH_CAP).expect("small");
    let (r, dice) = roll_scripted("1d4!", &vec![4; cap + 1]);
    assert_eq!(r.dice.len(), cap + 1);
    assert_eq!(r.total, 4 * i64::from(BURST_DEPTH_CAP + 1));
    assert!(r.dice[..cap].iter().all(|d| d.burst));
    assert!(!r.dice[cap].burst);
    assert!(r.dice[cap].from_burst);
    assert!(dice.unused().is_empty());
}

#[test]
fn keep_counts_a_burst_chain_as_one_die() {
    // Chains: 6+1 = 7 and 5. The first chain is kept, both of its dice.
    let (r, _) = roll_scripted("2d6kh1!", &[6, 1, 5]);
    assert_eq!(r.total, 7);
    assert_eq!(kept(&r), vec![true, true, false]);
    // Chains: 6+2 = 8 and 5. Keep lowest drops the whole first chain.
    let (r, _) = roll_scripted("2d6kl1!", &[6, 2, 5]);
    assert_eq!(r.total, 5);
    assert_eq!(kept(&r), vec![false, false, true]);
}

#[test]
fn keep_ties_go_to_the_earlier_die() {
    let (r, _) = roll_scripted("3d6kh1", &[5, 5, 2]);
    assert_eq!(kept(&r), vec![true, false, false]);
    let (r, _) = roll_scripted("3d6kl2", &[2, 5, 2]);
    assert_eq!(kept(&r), vec![true, false, true]);
    let (r, _) = roll_scripted("3d6kl1", &[4, 4, 4]);
    assert_eq!(kept(&r), vec![true, false, false]);
}

#[test]
fn stepped_dice_draw_the_rung_they_land_on() {
    for (expr, drawn) in [
        ("d8s+1", Primitive::D10),
        ("d4s-3", Primitive::D4),
        ("d12s+5", Primitive::D20),
        ("d20s-5", Primitive::D4),
        ("d6s+0", Primitive::D6),
        ("d10s+1", Primitive::D12),
    ] {
        let (r, dice) = roll_scripted(expr, &[1]);
        assert_eq!(dice.drawn(), &[drawn], "{expr}");
        assert_eq!(r.dice[0].die, drawn, "{expr}");
    }
}

#[test]
fn a_stepped_burst_fires_on_the_landed_die_maximum() {
    let (r, _) = roll_scripted("d8s+1!", &[10, 3]);
    assert_eq!(r.total, 13);
    let (r, _) = roll_scripted("d8s+1!", &[8]);
    assert_eq!(r.total, 8);
}

#[test]
fn signs_apply_to_whole_terms() {
    let (r, _) = roll_scripted("1d4-1d6-3", &[2, 5]);
    assert_eq!(r.terms, vec![2, -5, -3]);
    assert_eq!(r.total, -6);
    let (r, _) = roll_scripted("-2d6kh1+1", &[3, 4]);
    assert_eq!(r.terms, vec![-4, 1]);
}

#[test]
fn natural_is_the_face_of_a_single_die() {
    let (r, _) = roll_scripted("1d20+5", &[17]);
    assert_eq!(r.natural(), Some(17));
    assert_eq!(r.total, 22);
    let (r, _) = roll_scripted("2d20kh1", &[17, 3]);
    assert_eq!(r.natural(), None);
}

#[test]
fn an_exhausted_script_is_an_error() {
    let mut dice = ScriptedDice::new(vec![3]);
    assert_eq!(
        roll(&parse("2d6"), &mut dice),
        Err(DiceError::Exhausted {
            draw: 2,
            die: Primitive::D6,
            given: 1
        })
    );
    let mut dice = ScriptedDice::new(vec![6]);
    assert_eq!(
        roll(&parse("1d6!"), &mut dice),
        Err(DiceError::Exhausted {
            draw: 2,
            die: Primitive::D6,
            given: 1
        })
    );
}

#[test]
fn a_face_the_die_cannot_show_is_an_error() {
    let mut dice = ScriptedDice::new(vec![7]);
    assert_eq!(
        roll(&parse("1d6"), &mut dice),
        Err(DiceError::FaceOutOfRange {
            draw: 1,
            die: Primitive::D6,
            face: 7,
            sides: 6
        })
    );
}

#[test]
fn flat_only_expressions_draw_nothing() {
    let (r, dice) = roll_scripted("3-5", &[]);
    assert_eq!(r.total, -2);
    assert!(r.dice.is_empty());
    assert!(dice.drawn().is_empty());
}

#[test]
fn hand_built_expressions_the_parser_refuses_still_roll_without_panicking() {
    let odd = DiceExpr {
        terms: vec![
            plus(TermKind::Flat(i64::MAX)),
            plus(TermKind::Flat(i64::MAX)),
            minus(TermKind::Flat(i64::MIN)),
            plus(dice(0, DieKind::Plain(Primitive::D6), None, false)),
            plus(dice(
                2,
                DieKind::Plain(Primitive::D6),
                Some(Keep::Highest(9)),
                false,
            )),
            plus(dice(
                2,
                DieKind::Plain(Primitive::D6),
                Some(Keep::Lowest(0)),
                false,
            )),
            plus(dice(1, DieKind::Divided { divisor: 9 }, None, true)),
            plus(dice(
                1,
                DieKind::Stepped {
                    base: Primitive::D2,
                    steps: i32::MIN,
                },
                None,
                false,
            )),
            plus(dice(
                1,
                DieKind::Stepped {
                    base: Primitive::D100,
                    steps: i32::MAX,
                },
                None,
                false,
            )),
            plus(dice(
                1,
                DieKind::Stepped {
                    base: Primitive::D5,
                    steps: 1,
                },
                None,
                false,
            )),
        ],
    };
    let mut dice_source = ScriptedDice::new(vec![1, 2, 3, 4, 10, 1, 1, 1]);
    let r = roll(&odd, &mut dice_source).expect("rolls");
    assert_eq!(r.total, i64::MAX);
    assert_eq!(&r.terms[3..], &[0, 3, 0, 10, 1, 1, 1]);
    assert_eq!(
        dice_source.drawn(),
        &[
            Primitive::D6,
            Primitive::D6,
            Primitive::D6,
            Primitive::D6,
            Primitive::D10,
            Primitive::D4,
            Primitive::D20,
            Primitive::D6
        ]
    );
}

// ---------------------------------------------------------------------------------------
// The fair stream

const VECTOR_KEY: [u8; 32] = {
    let mut key = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        key[i] = i as u8;
        i += 1;
    }
    key
};

/// Pinned by an independent Python 3 computation (`hmac` + `hashlib`, following the module
/// docs of `stream.rs`) for key 00 01 .. 1f and epoch 7. If this fails, the derivation has
/// changed and every recorded epoch would stop verifying.
#[test]
fn stream_matches_the_independent_test_vectors() {
    let mut s = CounterStream::new(VECTOR_KEY, 7);
    let d20: Vec<u32> = (0..10)
        .map(|_| s.draw(Primitive::D20).expect("draw"))
        .collect();
    assert_eq!(d20, vec![4, 15, 4, 18, 3, 13, 11, 1, 12, 18]);
    assert_eq!(s.counter(), 10);

    let mut s = CounterStream::new(VECTOR_KEY, 7);
    let d100: Vec<u32> = (0..5)
        .map(|_| s.draw(Primitive::D100).expect("draw"))
        .collect();
    assert_eq!(d100, vec![24, 75, 84, 38, 83]);
    assert_eq!(s.last_draw_counters(), 4..5);

    // One die of each kind in turn: the counter, not the die, picks the block.
    let mut s = CounterStream::new(VECTOR_KEY, 7);
    let mixed: Vec<u32> = [6, 20, 100, 2, 4, 5, 8, 10, 12]
        .into_iter()
        .map(|n| {
            s.draw(Primitive::from_sides(n).expect("primitive"))
                .expect("draw")
        })
        .collect();
    assert_eq!(mixed, vec![4, 15, 84, 2, 3, 3, 3, 1, 8]);
}

#[test]
fn a_resumed_stream_continues_where_the_first_left_off() {
    let mut first = CounterStream::new(VECTOR_KEY, 7);
    for _ in 0..3 {
        first.draw(Primitive::D20).expect("draw");
    }
    let mut resumed = CounterStream::at(VECTOR_KEY, 7, first.counter());
    for _ in 0..5 {
        assert_eq!(resumed.draw(Primitive::D20), first.draw(Primitive::D20));
        assert_eq!(resumed.last_draw_counters(), first.last_draw_counters());
    }
    assert_eq!(resumed.counter(), 8);
}

#[test]
fn epochs_and_keys_give_different_streams() {
    let faces = |key, epoch| {
        let mut s = CounterStream::new(key, epoch);
        (0..20)
            .map(|_| s.draw(Primitive::D100).expect("draw"))
            .collect::<Vec<_>>()
    };
    assert_ne!(faces(VECTOR_KEY, 7), faces(VECTOR_KEY, 8));
    assert_ne!(faces(VECTOR_KEY, 7), faces([0; 32], 7));
}

/// Pearson's chi-square statistic of `draws` faces of `die` against a uniform distribution.
fn chi_square(die: Primitive, draws: u32) -> f64 {
    let mut stream = CounterStream::new([0x5A; 32], 2024);
    let sides = die.sides();
    let mut counts = vec![0u32; usize::try_from(sides).expect("small")];
    for _ in 0..draws {
        let face = stream.draw(die).expect("draw");
        counts[usize::try_from(face - 1).expect("small")] += 1;
    }
    let expected = f64::from(draws) / f64::from(sides);
    counts
        .iter()
        .map(|&c| (f64::from(c) - expected).powi(2) / expected)
        .sum()
}

/// The stream is deterministic, so this is the same computation on every run, not a flaky
/// statistical test: it pins that the face mapping has no gross bias (a wrong modulus, an
/// off-by-one face), with the bound at the 0.999 quantile of chi-square for `sides - 1`
/// degrees of freedom.
#[test]
fn stream_faces_are_uniform_by_chi_square() {
    for (die, draws, bound) in [
        (Primitive::D6, 60_000, 20.52),
        (Primitive::D20, 100_000, 43.82),
        (Primitive::D100, 200_000, 148.23),
    ] {
        let chi2 = chi_square(die, draws);
        assert!(chi2 < bound, "{die}: chi-square {chi2} over {bound}");
    }
}

// ---------------------------------------------------------------------------------------
// Properties

fn primitive() -> impl Strategy<Value = Primitive> {
    prop::sample::select(Primitive::ALL.to_vec())
}

fn rung() -> impl Strategy<Value = Primitive> {
    prop::sample::select(STEP_LADDER.to_vec())
}

fn die_kind() -> impl Strategy<Value = DieKind> {
    prop_oneof![
        primitive().prop_map(DieKind::Plain),
        (rung(), -10i32..=10).prop_map(|(base, steps)| DieKind::Stepped { base, steps }),
        (2u8..=4).prop_map(|divisor| DieKind::Divided { divisor }),
    ]
}

fn dice_term() -> impl Strategy<Value = DiceTerm> {
    (1u32..=6, die_kind(), any::<bool>()).prop_flat_map(|(count, die, burst)| {
        let keep = prop_oneof![
            Just(None),
            (1..=count).prop_map(|n| Some(Keep::Highest(n))),
            (1..=count).prop_map(|n| Some(Keep::Lowest(n))),
        ];
        let burst = burst && !matches!(die, DieKind::Divided { .. });
        keep.prop_map(move |keep| DiceTerm {
            count,
            die,
            keep,
            burst,
        })
    })
}

fn term() -> impl Strategy<Value = Term> {
    let kind = prop_oneof![
        (0i64..=1_000_000).prop_map(TermKind::Flat),
        dice_term().prop_map(TermKind::Dice),
    ];
    (any::<bool>(), kind).prop_map(|(negative, kind)| Term { negative, kind })
}

fn dice_expr() -> impl Strategy<Value = DiceExpr> {
    prop::collection::vec(term(), 1..5).prop_map(|terms| DiceExpr { terms })
}

proptest! {
    #[test]
    fn display_then_parse_gives_the_same_expression(e in dice_expr()) {
        let written = e.to_string();
        prop_assert_eq!(written.parse::<DiceExpr>(), Ok(e), "{}", written);
    }

    #[test]
    fn parsing_any_text_never_panics_and_errors_point_inside_it(
        s in prop_oneof!["[0-9dDkKhHlLsS!/+ -]{0,16}", "\\PC{0,16}"]
    ) {
        match DiceExpr::parse(&s) {
            Ok(e) => prop_assert_eq!(DiceExpr::parse(&e.to_string()), Ok(e)),
            Err(err) => {
                prop_assert!(err.offset() <= s.len());
                prop_assert!(s.is_char_boundary(err.offset()));
                prop_assert_eq!(err.input(), s.as_str());
            }
        }
    }

    #[test]
    fn rolled_faces_and_values_are_in_range(
        e in dice_expr(), key in any::<[u8; 32]>(), epoch in any::<u64>()
    ) {
        let mut stream = CounterStream::new(key, epoch);
        let r = roll(&e, &mut stream).expect("the stream never runs out here");
        prop_assert_eq!(&r.expr, &e.to_string());
        prop_assert_eq!(r.terms.len(), e.terms.len());
        prop_assert_eq!(r.total, r.terms.iter().sum::<i64>());
        prop_assert!(stream.counter() >= u64::try_from(r.dice.len()).expect("small"));
        for d in &r.dice {
            let TermKind::Dice(pool) = &e.terms[d.term].kind else {
                return Err(TestCaseError::fail("a die on a flat term"));
            };
            prop_assert_eq!(d.die, pool.die.primitive());
            prop_assert!((1..=d.die.sides()).contains(&d.face));
            match pool.die {
                DieKind::Divided { divisor } => {
                    prop_assert!((1..=5).contains(&d.value));
                    prop_assert_eq!(Some(d.value), DieKind::divided_value(divisor, d.face));
                }
                _ => prop_assert_eq!(d.value, i64::from(d.face)),
            }
        }
        for (i, (term, subtotal)) in e.terms.iter().zip(&r.terms).enumerate() {
            let unsigned = match term.kind {
                TermKind::Flat(v) => v,
                TermKind::Dice(_) => {
                    r.dice.iter().filter(|d| d.term == i && d.kept).map(|d| d.value).sum()
                }
            };
            prop_assert_eq!(*subtotal, if term.negative { -unsigned } else { unsigned });
        }

        // Each die records its counters, and together they tile the stream from 0.
        let mut next = 0;
        for d in &r.dice {
            let [first, end] = d.counters.expect("the stream numbers its draws");
            prop_assert_eq!(first, next);
            prop_assert!(end > first);
            next = end;
        }
        prop_assert_eq!(next, stream.counter());

        // The faces alone, replayed in draw order, re-derive the very same roll.
        let faces: Vec<u32> = r.dice.iter().map(|d| d.face).collect();
        let mut replay = ScriptedDice::new(faces);
        let mut r = r;
        r.forget_counters();
        prop_assert_eq!(roll(&e, &mut replay), Ok(r));
        prop_assert!(replay.unused().is_empty());
    }

    #[test]
    fn keep_highest_one_is_the_best_face(
        count in 1u32..=10, die in primitive(), key in any::<[u8; 32]>()
    ) {
        let e = parse(&format!("{count}{die}kh1"));
        let r = roll(&e, &mut CounterStream::new(key, 1)).expect("roll");
        let best = r.dice.iter().map(|d| d.face).max().expect("at least one die");
        prop_assert_eq!(r.total, i64::from(best));
        prop_assert!(r.total <= i64::from(die.sides()));
        prop_assert_eq!(r.dice.iter().filter(|d| d.kept).count(), 1);
    }

    #[test]
    fn steps_past_either_end_clamp(rung_index in 0usize..6, beyond in 0i32..=1_000_000) {
        let base = STEP_LADDER[rung_index];
        let to_top = 5 - i32::try_from(rung_index).expect("small");
        let to_bottom = -i32::try_from(rung_index).expect("small");
        let up = DieKind::Stepped { base, steps: to_top + beyond };
        let down = DieKind::Stepped { base, steps: to_bottom - beyond };
        prop_assert_eq!(up.primitive(), Primitive::D20);
        prop_assert_eq!(down.primitive(), Primitive::D4);
    }
}

#[test]
fn steps_clamp_at_the_extremes_of_i32() {
    for base in STEP_LADDER {
        let up = DieKind::Stepped {
            base,
            steps: i32::MAX,
        };
        let down = DieKind::Stepped {
            base,
            steps: i32::MIN,
        };
        assert_eq!(up.primitive(), Primitive::D20);
        assert_eq!(down.primitive(), Primitive::D4);
    }
}
