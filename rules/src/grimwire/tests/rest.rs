//! Rests a day and the day's one burnout recovery, on the game's clock (the GM's `new_day`);
//! and the choke a mechanical body does not fear. Aune: Condition 12, Focus 6.

use crate::testing::scene::S;

use super::scenes::{cast, n, play, play_cast, sheet, start, t};

fn rest(kind: &'static str) -> S {
    S::Gm("rest", vec![("target", t("aune")), ("kind", t(kind))], &[])
}

fn burnout(value: i64) -> S {
    S::Gm(
        "rule.set-resource",
        vec![
            ("target", t("aune")),
            ("resource", t("burnout")),
            ("value", n(value)),
        ],
        &[],
    )
}

#[test]
fn a_day_gives_two_short_rests_one_long_rest_and_one_level_of_burnout_back() {
    let steps = vec![
        rest("short"),
        rest("short"),
        S::GmRefused(
            "rest",
            vec![("target", t("aune")), ("kind", t("short"))],
            "rule: aune has had 2 short rests today: a day gives two short rests and one long one (the GM's new_day starts the next)",
        ),
        S::Res("aune", "short_rests", 2),
        burnout(2),
        // The long rest eases one level; a second long rest must wait for the next day.
        rest("long"),
        S::Res("aune", "burnout", 1),
        S::GmRefused(
            "rest",
            vec![("target", t("aune")), ("kind", t("long"))],
            "rule: aune has had 1 long rest today: a day gives two short rests and one long one (the GM's new_day starts the next)",
        ),
        S::Gm("new_day", vec![], &[]),
        S::Res("aune", "short_rests", 0),
        rest("short"),
        // Downtime in the spare hour: no burnout back, though the rest counts.
        S::Gm(
            "rest",
            vec![
                ("target", t("aune")),
                ("kind", t("long")),
                ("downtime", crate::action::ArgValue::Flag(true)),
            ],
            &[],
        ),
        S::Res("aune", "burnout", 1),
        S::Res("aune", "long_rests", 1),
        S::Gm("new_day", vec![], &[]),
        rest("long"),
        S::Res("aune", "burnout", 0),
    ];
    play("a day's rests", &[], steps);

    // No day passes in a fight.
    let mut steps = start();
    steps.push(S::GmRefused(
        "new_day",
        vec![],
        "rule: a day does not pass in the middle of a conflict",
    ));
    play("no day in a fight", &[], steps);
}

#[test]
fn a_mechanical_body_cannot_be_choked() {
    let mut cast = cast();
    cast.push(sheet(include_str!(
        "../../../../docs/examples/grimwire/warden.toml"
    )));
    let steps = vec![
        S::Place("aune", 0, 0),
        S::Place("goblin-1", 0, 6),
        S::Place("mara", 0, 8),
        S::Place("warden", 1, 0),
        S::Start(&[10, 5, 2, 1]),
        // COR 13 + 3 reaches its defence 14; COR 8 + 3 holds.
        S::Act("aune", "grapple", vec![("target", t("warden"))], &[13, 8]),
        S::Has("warden", "grappled:aune"),
        S::Refused(
            "aune",
            "choke",
            vec![("target", t("warden"))],
            "rule: warden is mechanical: only a body that breathes or bleeds can be choked",
        ),
    ];
    play_cast("a mechanical body", cast, steps);
}
