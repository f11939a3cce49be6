//! The dodge prompt: what a defender that does not answer gets, how long it has, and a
//! second dodge asked while the first was open (two aimed attacks firing together), which
//! the action spent on the first leaves the defender unable to make.

use crate::state::StateView;
use crate::testing::scene::{Played, S, Scene};

use super::scenes::{acting, beatrix, markus, play, t, thug};

#[test]
fn an_unanswered_dodge_takes_the_hit_after_the_tables_decision_time_a_minute_by_default() {
    play(Scene {
        name: "the dodge times out",
        options: &[],
        cast: vec![beatrix(), thug("gunman")],
        steps: vec![
            S::Start(&[1, 9]),
            // 10 + Senses 3 + Thrown 2 = 15 hits Evade 7; the gunman holds his action.
            S::Act(
                "beatrix",
                "attack",
                vec![("target", t("gunman")), ("weapon", t("knife"))],
                &[10],
            ),
            S::Check(Box::new(|p: &Played<'_>| {
                let step = p.state.encounter().pending.last().unwrap();
                assert_eq!(
                    (step.default.as_str(), step.timeout_ms),
                    ("take", 60_000),
                    "{}",
                    p.at
                );
            })),
            // Her action is spent, but the players' turn is not over while he decides.
            acting("players", &[]),
            // Nobody answers: the hit is taken, D10/2 of 8 = 4 + Body 2 = 6, Life 6 → 0, and
            // only then does the enemies' turn come.
            S::TimeOut(&[8]),
            S::Res("gunman", "life", 0),
            acting("enemies", &["gunman"]),
        ],
    });
}

/// Beatrix and Markus aim at the gunman; he holds his action, his group is done, and both
/// aimed attacks fire: Beatrix 2 + 3 + 2 + aimed 3 = 10 and Markus 1 + Body 3 + aimed 3 = 7,
/// both reach Evade 7, and he is asked twice, Markus's last.
fn two_aimed(then: Vec<S>) -> Vec<S> {
    let mut steps = vec![
        S::Start(&[1, 9]),
        S::Act(
            "beatrix",
            "aim",
            vec![("target", t("gunman")), ("weapon", t("knife"))],
            &[],
        ),
        S::Act(
            "markus",
            "aim",
            vec![("target", t("gunman")), ("weapon", t("club"))],
            &[],
        ),
        acting("enemies", &["gunman"]),
        S::Act("gunman", "delay", vec![], &[2, 1]),
    ];
    steps.extend(then);
    steps
}

#[test]
fn a_second_dodge_asked_at_once_cannot_be_made_with_the_action_the_first_spent() {
    play(Scene {
        name: "two aimed attacks, one action",
        options: &[],
        cast: vec![beatrix(), markus(), thug("gunman")],
        steps: two_aimed(vec![
            S::Asked("markus hits gunman with club: dodge"),
            // He dodges Markus's club: 10 + Body 2 + Dodge 0 = 12 beats 7.
            S::Answer("dodge", &[10]),
            S::Res("gunman", "life", 6),
            S::Asked("beatrix hits gunman with knife: dodge"),
            // That spent his action: the second dodge is not made, the knife's hit is taken,
            // D10/2 of 6 = 3 + Body 2 = 5, Life 6 → 1.
            S::Answer("dodge", &[6]),
            S::Said("gunman cannot dodge: no action left this round; the hit is taken"),
            S::Res("gunman", "life", 1),
        ]),
    });
    // Answered `take`, the second hit is simply taken: nothing to say about a dodge.
    play(Scene {
        name: "two aimed attacks, the second taken",
        options: &[],
        cast: vec![beatrix(), markus(), thug("gunman")],
        steps: two_aimed(vec![
            S::Answer("dodge", &[10]),
            S::Answer("take", &[6]),
            S::PlayerNeverHears("cannot dodge"),
            S::Res("gunman", "life", 1),
        ]),
    });
}

/// An aimed attack at a group fires once that group's turn is over, and a dodge still open in
/// it holds the turn: the thug's aim at Beatrix waits for his own dodge of her knife.
#[test]
fn an_aimed_attack_at_a_group_waits_for_the_dodge_still_open_in_its_turn() {
    play(Scene {
        name: "aimed after the dodge",
        options: &[],
        cast: vec![beatrix(), thug("thug-a")],
        steps: vec![
            S::Start(&[1, 9]),
            S::Act("beatrix", "act", vec![("what", t("looks around"))], &[]),
            S::Act(
                "thug-a",
                "aim",
                vec![("target", t("beatrix")), ("weapon", t("cudgel"))],
                &[],
            ),
            S::Round(2),
            // Her knife: 10 + 3 + 2 = 15 hits; the thug, with his new action, may dodge.
            // Nothing of his aimed attack is drawn yet.
            S::Act(
                "beatrix",
                "attack",
                vec![("target", t("thug-a")), ("weapon", t("knife"))],
                &[10],
            ),
            S::Asked("beatrix hits thug-a with knife: dodge"),
            // He takes it: D10/2 of 8 = 4 + 2 = 6, Life 0. Now the players' turn is over and
            // his aim fires: 5 + Body 2 + aimed 3 = 10 hits Evade 5; she has no action left:
            // cudgel 4 + 2 = 6, Life 10 → 4.
            S::Answer("take", &[8, 5, 4]),
            S::Res("thug-a", "life", 0),
            S::Res("beatrix", "life", 4),
        ],
    });
}
