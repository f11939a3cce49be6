#!/usr/bin/env python3
"""Reference verifier for Tablehold log exports, written from docs/FAIRNESS.md alone.

    python3 docs/verify.py EXPORT_FILE [--allow-test-seed]
    python3 docs/verify.py --self-test

Checks the file header, the event numbers, the hash chain, every epoch's commitments and
reveals, that dice come only from the current epoch, the tiling of each epoch's dice
counters, the face of every die the file shows whose epoch's seed is revealed, every roll
rolled again from its faces, and hidden dice against their commitments once opened. It refuses
a fact no format version has, as `tablehold verify` does.
Exit status: 0 verified, 1 failed, 3 verified but an epoch used the insecure test seed, 4 not
yet verifiable (dice in epochs whose seed is not revealed yet).
"""
import argparse
import hashlib
import hmac
import json
import os
import re
import sys
import traceback

FORMAT, FILE_VERSION, EVENT_VERSION = "tablehold-log", 1, 4
SEALING_VERSION = 4  # the first event format that commits to hidden dice (rule 10)
SIDES = {"d%d" % n: n for n in (2, 4, 5, 6, 8, 10, 12, 20, 100)}
PICK_DICE = ["d%d" % n for n in (2, 4, 5, 6, 8, 10, 12, 20, 100)]  # smallest first (section 5)
# Every fact of event formats 1 to 4 (section 6 and docs/PROTOCOL.md). A part holding another
# was written by a newer Tablehold, or forged: either way this verifier cannot vouch for it.
KNOWN_FACTS = {
    "rolled", "checked", "hidden_target", "damage_resolved", "picked", "noted", "told", "ruled",
    "combatant_added", "combatant_removed", "owner_set", "resource_set", "status_set",
    "turn_counter_set", "moved", "terrain_set", "encounter_started", "encounter_ended",
    "order_set", "encounter_value_set", "round_started", "turn_started", "turns_opened", "acted",
    "hold_set", "decision_requested", "decision_resolved", "decision_answered", "window_secret",
    "step_deferred", "deferred_resumed", "dice_drawn", "epoch_opened", "entropy_committed",
    "commitments_closed", "entropy_revealed", "entropy_withheld", "epoch_sealed",
    "epoch_revealed", "dice_opened", "seat_readmitted", "digest_recorded"}
HEADER = re.compile(r'\{"seq":(0|[1-9][0-9]*),"version":(0|[1-9][0-9]*),"at_ms":(0|[1-9][0-9]*)\}')
EPOCH_FACTS = {"epoch_opened", "entropy_committed", "commitments_closed", "entropy_revealed",
               "entropy_withheld", "epoch_sealed", "dice_drawn", "epoch_revealed", "dice_opened"}
PURPOSES = ("table", "encounter")


class RepeatedKey(ValueError):
    def __init__(self, key):
        super().__init__(key)
        self.key = key


def no_repeated_keys(pairs):
    """json.loads' object hook: one value per key, or the part means two things."""
    out = {}
    for key, value in pairs:
        if key in out:
            raise RepeatedKey(key)
        out[key] = value
    return out


class Fail(Exception):
    def __init__(self, seq, reason):
        super().__init__(reason)
        self.seq, self.reason = seq, reason


# --- Section 3 and 4 of FAIRNESS.md ---------------------------------------------------------

def sha(data):
    return hashlib.sha256(data).digest()


def be64(n):
    return n.to_bytes(8, "big")


def seat_bytes(seat):
    raw = seat.encode("utf-8")
    if len(raw) > 255:
        raise ValueError("seat id %r is longer than 255 bytes" % seat)
    return bytes([len(raw)]) + raw


def seed_commitment(epoch, seed):
    return sha(b"tablehold-seed-v1" + be64(epoch) + seed)


def entropy_commitment(epoch, seat, entropy):
    return sha(b"tablehold-entropy-v1" + be64(epoch) + seat_bytes(seat) + entropy)


def withheld_replacement(commitment):
    return sha(b"tablehold-withheld-v1" + commitment)


def epoch_key(epoch, seed, contributions):
    """contributions: {seat: 32 bytes}. No contributions: the key is the seed itself."""
    if not contributions:
        return seed
    data = b"tablehold-key-v1" + be64(epoch) + seed
    for seat in sorted(contributions, key=lambda s: s.encode("utf-8")):
        data += seat_bytes(seat) + contributions[seat]
    return sha(data)


def word(key, epoch, counter):
    block = hmac.new(key, b"tablehold-dice-v1" + be64(epoch) + be64(counter), hashlib.sha256)
    return int.from_bytes(block.digest()[:4], "big")


def draw(key, epoch, counter, sides):
    """Draws one die from `counter`: returns (face, end), its counters being [counter, end)."""
    limit = (1 << 32) // sides * sides
    while counter < (1 << 64) - 1:
        w = word(key, epoch, counter)
        counter += 1
        if w < limit:
            return w % sides + 1, counter
    raise ValueError("the stream is exhausted")


def hidden_commitment(key, epoch, text):
    """Rule 10: the commitment to a hidden part's dice, keyed with the epoch key."""
    return hmac.new(key, b"tablehold-hidden-dice-v1" + be64(epoch) + text.encode("utf-8"),
                    hashlib.sha256).digest()


def dice_of(name, fact):
    """The dice a fact holds, as an opening shows them (rule 10): {"dice": [{"die", "face",
    "counters"}, ...]}, or None (no dice, or a die without counters: faces given by hand)."""
    if name in ("rolled", "checked"):
        dice = [{"die": d["die"], "face": d["face"], "counters": d.get("counters")}
                for d in fact["roll"]["dice"]]
    elif name == "picked" and fact.get("die") is not None:
        dice = [{"die": fact["die"], "face": fact["face"], "counters": fact.get("counters")}]
    else:
        return None
    if not dice or any(d["counters"] is None for d in dice):
        return None
    return {"dice": dice}


def opened_dice(text):
    """An opening's text: exactly {"dice": [...]}, each die exactly die, face and counters."""
    dice = json.loads(text, object_pairs_hook=no_repeated_keys)
    if not (isinstance(dice, dict) and set(dice) == {"dice"} and isinstance(dice["dice"], list)
            and dice["dice"]):
        raise ValueError("an opening is a non-empty list of dice")
    for d in dice["dice"]:
        if not (isinstance(d, dict) and set(d) == {"die", "face", "counters"}):
            raise ValueError("an opened die has exactly die, face and counters")
    return dice


def same_dice(a, b):
    """Whether two lists of dice are the same: kind, face and counters of each, in order."""
    def norm(d):
        return [(x["die"], x["face"], x["counters"]) for x in d["dice"]]
    return norm(a) == norm(b)


def is_sealed(audience, dice):
    """A part whose dice some seat does not see: gm_only or a seats audience (rule 10)."""
    return dice is not None and (audience == "gm_only"
                                 or (isinstance(audience, dict) and "seats" in audience))


def is_stand_in(audience):
    return audience == "all_but_gm" or (isinstance(audience, dict) and "all_but" in audience)


# --- Section 5: composite dice, rolled again from their logged faces --------------------------

LADDER = [4, 6, 8, 10, 12, 20]
DIVIDED = {2: [1, 1, 2, 2, 3, 3, 4, 4, 4, 5], 3: [1, 1, 1, 2, 2, 2, 3, 3, 3, 4],
           4: [1, 1, 1, 1, 2, 2, 2, 2, 3, 3]}
TERM = re.compile(r"(?:([1-9][0-9]*)d(?:([1-9][0-9]*)s(\+0|[+-][1-9][0-9]*)|10/([234])|([1-9][0-9]*))"
                  r"(?:(kh|kl)([1-9][0-9]*))?(!)?|(0|[1-9][0-9]*))")


def parse_expr(text):
    """The canonical dice notation of section 5, as a list of (sign, term): a term is
    ("flat", n) or ("dice", count, sides drawn, divisor or None, keep or None, bursts)."""
    if not isinstance(text, str):
        raise ValueError("not text")
    terms, pos = [], 0
    while pos < len(text):
        sign = 1
        if text[pos] in "+-":
            if text[pos] == "+" and pos == 0:
                raise ValueError("a leading + is not canonical")
            sign = -1 if text[pos] == "-" else 1
            pos += 1
        elif pos > 0:
            raise ValueError("terms are joined by + or -")
        m = TERM.match(text, pos)
        if not m or m.end() == pos:
            raise ValueError("no term at column %d" % (pos + 1))
        pos = m.end()
        count, base, steps, divisor, sides, keep, keep_n, burst, flat = m.groups()
        if flat is not None:
            if int(flat) > 1000000:
                raise ValueError("a flat modifier is at most 1000000")
            terms.append((sign, ("flat", int(flat))))
            continue
        count = int(count)
        if not 1 <= count <= 100:
            raise ValueError("1 to 100 dice a term")
        if base is not None:
            if int(base) not in LADDER or not -10 <= int(steps) <= 10:
                raise ValueError("a stepped die is on the ladder, moved -10 to 10 rungs")
            drawn = LADDER[max(0, min(len(LADDER) - 1, LADDER.index(int(base)) + int(steps)))]
        elif divisor is not None:
            drawn = 10
        else:
            drawn = int(sides)
            if "d%d" % drawn not in SIDES:
                raise ValueError("no d%d" % drawn)
        keep = None if keep is None else (keep, int(keep_n))
        if keep and not keep[1] <= count:
            raise ValueError("keeps more dice than it rolls")
        terms.append((sign, ("dice", count, drawn, divisor and int(divisor), keep, bool(burst))))
    if not terms:
        raise ValueError("no term")
    return terms


def reroll(roll):
    """Section 5's roll of `roll["expr"]` from the faces the log gives, in order: the dice
    (without counters), subtotals and total it must show."""
    faces = [d["face"] for d in roll["dice"]]
    dice, subtotals, used = [], [], 0
    for index, (sign, term) in enumerate(parse_expr(roll["expr"])):
        if term[0] == "flat":
            subtotals.append(sign * term[1])
            continue
        _, count, sides, divisor, keep, bursts = term
        bursts = bursts and divisor is None
        chains = []
        for _ in range(count):
            start, total, extra = len(dice), 0, 0
            while True:
                if used >= len(faces):
                    raise ValueError("needs more dice than the log holds")
                face = faces[used]
                used += 1
                if type(face) is not int or not 1 <= face <= sides:
                    raise ValueError("a d%d cannot show %r" % (sides, face))
                value = DIVIDED[divisor][face - 1] if divisor else face
                total += value
                burst = bursts and face == sides and extra < 20
                dice.append({"term": index, "die": "d%d" % sides, "face": face, "value": value,
                             "kept": True, "burst": burst, "from_burst": extra > 0})
                if not burst:
                    break
                extra += 1
            chains.append((start, total))
        kept = [True] * len(chains)
        if keep:
            order = sorted(range(len(chains)), key=lambda i: -chains[i][1] if keep[0] == "kh"
                           else chains[i][1])  # a stable sort: the earlier chain first on ties
            kept = [False] * len(chains)
            for i in order[:keep[1]]:
                kept[i] = True
        subtotal = 0
        for i, (start, total) in enumerate(chains):
            end = chains[i + 1][0] if i + 1 < len(chains) else len(dice)
            if kept[i]:
                subtotal += total
            else:
                for d in dice[start:end]:
                    d["kept"] = False
        subtotals.append(sign * subtotal)
    if used != len(faces):
        raise ValueError("uses only %d of its %d dice" % (used, len(faces)))
    return dice, subtotals, sum(subtotals)


def check_roll(seq, fact):
    """Every roll is rolled again from its faces; every check's total is its roll's plus its
    modifiers (what `tablehold verify` checks too)."""
    roll = fact["roll"]
    try:
        dice, subtotals, total = reroll(roll)
    except ValueError as e:
        raise Fail(seq, "rolling `%s` again from its faces: %s" % (roll.get("expr"), e))
    logged = [{k: d.get(k) for k in ("term", "die", "face", "value", "kept", "burst",
                                      "from_burst")} for d in roll["dice"]]
    if (logged, roll["terms"], roll["total"]) != (dice, subtotals, total):
        raise Fail(seq, "rolling `%s` again from its faces gives other dice, values, subtotals or "
                        "total than the log" % roll["expr"])
    if fact["fact"] == "checked":
        mods = fact["modifiers"]
        if any(type(m.get("value")) is not int for m in mods) or \
                fact["total"] != roll["total"] + sum(m["value"] for m in mods):
            raise Fail(seq, "the check %r totals %r, not its roll plus its modifiers"
                       % (fact.get("label"), fact.get("total")))


# --- Reading an export (section 8) ----------------------------------------------------------

def hex32(value, seq, what):
    if not (isinstance(value, str) and re.fullmatch(r"[0-9a-fA-F]{64}", value)):
        raise Fail(seq, "%s is not 64 hex digits: %r" % (what, value))
    return bytes.fromhex(value)


def u64(value, seq, what):
    """An epoch id, counter or the like: a JSON integer (not true/false, not 1.0) below 2^64."""
    if type(value) is not int or not 0 <= value < 1 << 64:
        raise Fail(seq, "%s: %r is not an unsigned 64-bit integer" % (what, value))
    return value


def span(value, seq, what):
    """A [first, end) pair of counters."""
    if not (isinstance(value, list) and len(value) == 2):
        raise Fail(seq, "%s: %r is not a [first, end) pair" % (what, value))
    return [u64(value[0], seq, what), u64(value[1], seq, what)]


def known_audience(audience):
    """One of the format's audiences (section 6): "everyone", "gm_only", "all_but_gm", or
    {"seats": [...]} / {"all_but": [...]} with a list of seat ids."""
    if audience in ("everyone", "gm_only", "all_but_gm"):
        return True
    return (isinstance(audience, dict) and len(audience) == 1
            and any(isinstance(audience.get(k), list)
                    and all(type(x) is str for x in audience[k]) for k in ("seats", "all_but")))


def admits(audience, viewer):
    """Whether a part with `audience` is the viewer's own (section 6): for the GM every part
    but the stand-ins made for the seats, for a seat the parts addressed to it."""
    if viewer == "gm":
        return audience != "all_but_gm" and not (
            isinstance(audience, dict) and "all_but" in audience)
    if audience in ("everyone", "all_but_gm"):
        return True
    if not isinstance(audience, dict):
        return False
    seat = viewer[len("seat:"):]
    seats = audience.get("seats")
    if isinstance(seats, list):
        return seat in seats
    others = audience.get("all_but")
    return isinstance(others, list) and seat not in others


def read_export(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines = [line.rstrip("\r") for line in text.split("\n")]
    try:
        first = json.loads(lines[0])
    except ValueError:
        first = None
    try:
        if isinstance(first, dict) and "format" in first:
            header, events = first, [json.loads(line) for line in lines[1:] if line.strip()]
        else:
            doc = json.loads(text)
            header, events = doc["header"], doc["events"]
    except (ValueError, KeyError, TypeError) as e:
        raise Fail(0, "not a Tablehold export (%s)" % e)
    if not (isinstance(header, dict) and isinstance(events, list)):
        raise Fail(0, "not a Tablehold export (no header object or no event list)")
    return header, events


# --- Verification (section 9) ---------------------------------------------------------------

class Verifier:
    def __init__(self, header):
        if header.get("format") != FORMAT:
            raise Fail(0, "format is %r, not %r" % (header.get("format"), FORMAT))
        version = header.get("version")
        if type(version) is not int or version < 1:
            raise Fail(0, "the header's version must be a positive integer")
        if version > FILE_VERSION:
            raise Fail(0, "file version %d is newer than this verifier (%d)" % (version, FILE_VERSION))
        self.viewer = header.get("viewer")
        if self.viewer != "gm" and not re.fullmatch(r"seat:.+", str(self.viewer)):
            raise Fail(0, "viewer %r is neither gm nor seat:<id>" % self.viewer)
        self.epochs, self.test_seeds = {}, []
        self.open = {}  # purpose -> its unrevealed epoch (at most one each)
        self.checked = self.unrevealed = 0
        self.face_failure = None  # the earliest die that did not recompute
        self.ended = None  # (seq, epoch) of an encounter that just ended: the next event reveals it
        # Rule 10: commitments per epoch, events waiting for their openings, the openings due.
        self.sealed, self.waiting, self.opening = {}, {}, None
        self.barred = {}  # rule 11: seat -> the epoch it withheld in, this session
        self.version = 0
        self.uncommitted = self.opened = 0

    def event(self, seq, ev, prev):
        m = HEADER.fullmatch(ev.get("header", ""))
        if not m:
            raise Fail(seq, "header %r is not the canonical text" % ev.get("header"))
        if int(m.group(1)) != seq:
            raise Fail(seq, "expected event %d here, found event %s" % (seq, m.group(1)))
        hashes, shown, numbers = [], [], []
        for i, p in enumerate(ev.get("parts", []), 1):
            if isinstance(p.get("json"), str):
                hashes.append(sha(p["json"].encode("utf-8")))
                shown.append(p["json"])
                numbers.append(i)
            else:
                hashes.append(hex32(p.get("hidden"), seq, "hidden part %d" % i))
        link = sha(b"tablehold-chain-v1" + prev + sha(ev["header"].encode("utf-8")) + b"".join(hashes))
        if link != hex32(ev.get("link"), seq, "the link"):
            raise Fail(seq, "the hash chain breaks here: the link does not recompute")
        version = self.version = int(m.group(2))
        if version > EVENT_VERSION:
            raise Fail(seq, "event version %s is newer than this verifier" % m.group(2))
        try:
            # A part not everyone sees also carries a "salt" (section 7); it is ignored here,
            # as any field this verifier does not know.
            parts = [json.loads(text, object_pairs_hook=no_repeated_keys) for text in shown]
            facts = [(p["audience"], p["fact"]["fact"], p["fact"]) for p in parts]
        except RepeatedKey as e:
            raise Fail(seq, "a part names the key %r twice: readers could disagree on its value" % e.key)
        except (ValueError, KeyError, TypeError) as e:
            raise Fail(seq, "a part is not a valid part: %r" % e)
        for audience, name, _ in facts:
            if not known_audience(audience):
                raise Fail(seq, "a part's audience %r is not one the format has" % (audience,))
        # A seat's export holds only what that seat may see (section 8); the GM's, everything.
        for number, (audience, _, _) in zip(numbers, facts):
            if self.viewer != "gm" and not admits(audience, self.viewer):
                raise Fail(seq, "part %d is addressed to %s, which does not include this "
                                "export's viewer %s" % (number, json.dumps(audience), self.viewer))
            if name not in KNOWN_FACTS:
                raise Fail(seq, "a part holds the fact %r, which this verifier does not know" % name)
        # The openings a reveal calls for come right after it, in events of nothing else.
        only_openings = len(hashes) == len(shown) and facts and all(
            name == "dice_opened" for _, name, _ in facts)
        if not only_openings:
            self.opening_due()
        # The seed of an encounter that ended is revealed in the very next event (section 6).
        if self.ended is not None:
            ended, epoch = self.ended
            self.ended = None
            if not any(name == "epoch_revealed" and fact.get("epoch") == epoch
                       for _, name, fact in facts):
                raise Fail(ended, "the encounter ends here, but the next event does not reveal "
                                  "the seed of its epoch %d" % epoch)
        # The event's one dice_drawn, and the index of the draw the last counted die took.
        drawn, revealed = {"epoch": None, "draws": [], "last": None, "sealed": []}, []
        for number, (audience, name, fact) in zip(numbers, facts):
            if name == "seat_readmitted":
                if audience != "everyone":
                    raise Fail(seq, "%s must be visible to everyone" % name)
                self.barred.pop(fact.get("seat"), None)
            if name in EPOCH_FACTS:
                if audience != "everyone":
                    raise Fail(seq, "%s must be visible to everyone" % name)
                self.epoch_fact(seq, name, fact, drawn, revealed)
                if name == "epoch_revealed":
                    epoch = fact["epoch"]
                    self.recompute(epoch)
                    self.opening = {"epoch": epoch, "key": self.epochs[epoch]["key"],
                                    "reveal_seq": seq, "expected": self.sealed.pop(epoch, [])}
                elif name == "dice_opened":
                    self.open_dice(seq, number, fact)
            self.close_if_done()
        if any(name == "encounter_ended" for _, name, _ in facts) and "encounter" in self.open:
            self.ended = (seq, self.open["encounter"])
        for number, (audience, name, fact) in zip(numbers, facts):
            # The viewer's own dice claim their draw and count. The GM's export also shows the
            # stand-ins made for the seats: their dice repeat those of the GM-only part beside
            # them, so they are recomputed but neither claim a draw nor count.
            count = admits(audience, self.viewer)
            if name in ("rolled", "checked"):
                check_roll(seq, fact)
                for i, d in enumerate(fact["roll"]["dice"]):
                    self.die(seq, d.get("die"), d.get("face"), d.get("counters"), drawn, count,
                             number, i)
            elif name == "picked":
                self.pick(seq, fact)
                self.die(seq, fact.get("die"), fact.get("face"), fact.get("counters"), drawn, count,
                         number, 0)
        hidden = len(hashes) > len(shown)
        unclaimed = 0
        for d in drawn["draws"]:
            if d["claimed"] is None:
                if self.viewer == "gm" or not hidden:
                    raise Fail(seq, "the draw [%d, %d) of epoch %d belongs to no die: a roll was "
                               "discarded" % (d["span"][0], d["span"][1], drawn["epoch"]))
                unclaimed += 1
        if drawn["epoch"] is not None:
            self.drawn(seq, version, drawn, numbers, facts, len(hashes), unclaimed)
        for epoch in revealed:
            self.recompute(epoch)
        return link

    # --- Rule 10: hidden dice, committed when drawn and opened at the reveal ---------------

    def drawn(self, seq, version, drawn, numbers, facts, total, unclaimed):
        listed, previous = [], 0
        for entry in drawn["sealed"]:
            part = entry.get("part") if isinstance(entry, dict) else None
            if type(part) is not int or part <= previous or part > total:
                raise Fail(seq, "the dice_drawn's commitments to hidden dice must name parts of "
                                "the event, each once, in order (%r)" % (entry,))
            previous = part
            listed.append(part)
        w = {"epoch": drawn["epoch"], "spans": [d["span"] for d in drawn["draws"]],
             "own": [(d["claimed"][0], d["claimed"][1], at)
                     for at, d in enumerate(drawn["draws"]) if d["claimed"] is not None],
             "shown": {}, "stand_ins": [], "opened": {},
             "hidden": set(range(1, total + 1)) - set(numbers)}
        seen_hidden_dice = False
        for number, (audience, name, fact) in zip(numbers, facts):
            dice = dice_of(name, fact)
            if is_sealed(audience, dice):
                seen_hidden_dice = True
                if version >= SEALING_VERSION and number not in listed:
                    raise Fail(seq, "part %d holds dice kept from some seat, and the event's "
                                    "dice_drawn commits to no such part" % number)
                w["shown"][number] = dice
            elif number in listed:
                raise Fail(seq, "a commitment to hidden dice names part %d, which holds no dice "
                                "kept from a seat" % number)
            elif dice is not None and is_stand_in(audience):
                w["stand_ins"].append((number, dice))
        if version < SEALING_VERSION:
            if (self.viewer == "gm" and seen_hidden_dice) or (self.viewer != "gm" and unclaimed):
                self.uncommitted += 1
            if not listed:
                return
        for entry in drawn["sealed"]:
            c = hex32(entry.get("commitment"), seq, "the commitment to hidden dice")
            self.sealed.setdefault(drawn["epoch"], []).append((seq, entry["part"], c))
        if listed or w["stand_ins"] or unclaimed:
            self.waiting[seq] = w

    def opening_due(self):
        o = self.opening
        if o and o["expected"]:
            s, part, _ = o["expected"][0]
            raise Fail(o["reveal_seq"], "epoch %d is revealed, but the hidden dice of seq %d part "
                                        "%d are never opened" % (o["epoch"], s, part))

    def open_dice(self, seq, number, f):
        of_seq, of_part = u64(f.get("seq"), seq, "dice_opened's seq"), f.get("part")
        text, epoch, o = f.get("dice"), f["epoch"], self.opening
        if (o is None or o["epoch"] != epoch or not o["expected"]
                or o["expected"][0][:2] != (of_seq, of_part)):
            raise Fail(seq, "part %d opens the dice of seq %d part %r, which are not the next "
                            "hidden dice due" % (number, of_seq, of_part))
        if type(text) is not str or hidden_commitment(o["key"], epoch, text) != o["expected"][0][2]:
            raise Fail(seq, "part %d opens the dice of seq %d part %d as other dice than were "
                            "committed to when they were drawn" % (number, of_seq, of_part))
        try:
            dice = opened_dice(text)
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise Fail(seq, "part %d: the opened dice are malformed (%r)" % (number, e))
        o["expected"].pop(0)
        ds = [(d["die"], d["face"], d["counters"]) for d in dice["dice"]]
        w = self.waiting.get(of_seq)
        # Dice the viewer was shown a stand-in of are not new to it.
        new = w is not None and of_part in w["hidden"] and not any(
            same_dice(s, dice) for _, s in w["stand_ins"])
        for die, face, counters in ds:
            if die not in SIDES or type(face) is not int or not 1 <= face <= SIDES[die]:
                raise Fail(seq, "a die %r with face %r" % (die, face))
            if counters is None:
                raise Fail(seq, "a %s without the counters it was drawn on" % die)
            counters = span(counters, seq, "the counters of a %s" % die)
            self.epochs[epoch]["dice"].append((of_seq, die, face, counters, False, new))
        if w is not None:
            w["opened"][of_part] = dice
        self.recompute(epoch)

    def close_if_done(self):
        o = self.opening
        if o is None or o["expected"]:
            return
        self.opening = None
        for seq in sorted(s for s, w in self.waiting.items() if w["epoch"] == o["epoch"]):
            self.settle(seq, self.waiting.pop(seq))

    def settle(self, seq, w):
        """Rule 10, once an event's dice are all known: the parts the viewer saw agree with
        the openings, and its draws are taken once each, in order."""
        for number, dice in sorted(w["shown"].items()):
            if number not in w["opened"] or not same_dice(w["opened"][number], dice):
                raise Fail(seq, "part %d shows other dice than were committed to and opened for it"
                           % number)
        for number, dice in w["stand_ins"]:
            if not any(same_dice(o, dice) for o in w["opened"].values()):
                raise Fail(seq, "part %d stands in for a hidden roll, but shows other dice than "
                                "any opened for its event" % number)
        claims = list(w["own"])
        for number, dice in sorted(w["opened"].items()):
            if number not in w["hidden"] or any(same_dice(s, dice) for _, s in w["stand_ins"]):
                continue
            counters = [d["counters"] for d in dice["dice"]]
            for i, c in enumerate(counters):
                if c not in w["spans"]:
                    raise Fail(seq, "part %d: a die on counters %r, which are not a draw of this "
                                    "event" % (number, c))
                claims.append((number, i, w["spans"].index(c)))
        claims.sort()
        taken = [False] * len(w["spans"])
        for expected, (number, _, at) in enumerate(claims):
            first, end = w["spans"][at]
            if taken[at]:
                raise Fail(seq, "two dice claim the draw [%d, %d)" % (first, end))
            if at != expected:
                raise Fail(seq, "part %d: a die on counters [%d, %d) out of draw order: each die "
                                "takes the draw after the one before it" % (number, first, end))
            taken[at] = True
        for at, t in enumerate(taken):
            if not t:
                first, end = w["spans"][at]
                raise Fail(seq, "the draw [%d, %d) of epoch %d belongs to no die: a roll was "
                                "discarded" % (first, end, w["epoch"]))

    def epoch_fact(self, seq, name, f, drawn, revealed):
        if name == "dice_drawn" and drawn["epoch"] is not None:
            raise Fail(seq, "a second dice_drawn in one event")
        epoch = u64(f.get("epoch"), seq, "the epoch of %s" % name)
        if name == "epoch_opened":
            if epoch != len(self.epochs) + 1:
                raise Fail(seq, "epoch %r opened where %d should be next" % (epoch, len(self.epochs) + 1))
            purpose = f.get("purpose")
            if purpose not in PURPOSES:
                raise Fail(seq, "epoch %d is opened for %r, not for table or encounter" % (epoch, purpose))
            if purpose in self.open:
                raise Fail(seq, "epoch %d is opened for %s while epoch %d, also for %s, is not revealed"
                           % (epoch, purpose, self.open[purpose], purpose))
            collecting = [i for i, e in self.epochs.items() if e["phase"] in ("committing", "revealing")]
            if collecting:
                raise Fail(seq, "epoch %d is opened while epoch %d is still collecting contributions"
                           % (epoch, collecting[0]))
            self.epochs[epoch] = {"phase": "committing", "committed": {}, "contributions": {},
                                  "commitment": hex32(f.get("commitment"), seq, "the seed commitment"),
                                  "purpose": purpose, "next": 0, "key": None, "dice": [],
                                  "withheld": 0}
            self.open[purpose] = epoch
            if f.get("test_seed") is not False:
                self.test_seeds.append(epoch)
            return
        e = self.epochs.get(epoch)
        if e is None:
            raise Fail(seq, "%s names epoch %r, which was never opened" % (name, epoch))
        want = {"entropy_committed": "committing", "commitments_closed": "committing",
                "entropy_revealed": "revealing", "entropy_withheld": "revealing",
                "epoch_sealed": "revealing", "dice_drawn": "sealed", "epoch_revealed": "sealed",
                "dice_opened": "revealed"}[name]
        if e["phase"] != want:
            raise Fail(seq, "%s while epoch %d is %s" % (name, epoch, e["phase"]))
        seat = f.get("seat")
        if name == "entropy_committed":
            if type(seat) is not str or len(seat.encode("utf-8")) > 255:
                raise Fail(seq, "a seat id longer than 255 bytes cannot be framed in the key")
            if self.version >= SEALING_VERSION and seat in self.barred:
                raise Fail(seq, "%s commits to epoch %d, but it withheld its reveal in epoch %d this "
                                "session and the GM did not readmit it" % (seat, epoch, self.barred[seat]))
            if seat in e["committed"]:
                raise Fail(seq, "%r commits to epoch %d twice" % (seat, epoch))
            e["committed"][seat] = hex32(f.get("commitment"), seq, "the commitment")
        elif name == "commitments_closed":
            e["phase"] = "revealing"
        elif name in ("entropy_revealed", "entropy_withheld"):
            if seat not in e["committed"] or seat in e["contributions"]:
                raise Fail(seq, "%s for %r, which did not commit or already contributed" % (name, seat))
            commitment = e["committed"][seat]
            if name == "entropy_revealed":
                value = hex32(f.get("entropy"), seq, "the entropy")
                ok = entropy_commitment(epoch, seat, value) == commitment
            else:
                value = hex32(f.get("replacement"), seq, "the replacement")
                ok = withheld_replacement(commitment) == value
            if not ok:
                raise Fail(seq, "the %s of seat %r does not match its commitment" % (name, seat))
            e["contributions"][seat] = value
            e["withheld"] += name == "entropy_withheld"
            if name == "entropy_withheld":
                self.barred[seat] = epoch
        elif name == "epoch_sealed":
            missing = sorted(set(e["committed"]) - set(e["contributions"]))
            if missing:
                raise Fail(seq, "epoch %d sealed before %r revealed" % (epoch, missing[0]))
            e["phase"] = "sealed"
        elif name == "dice_drawn":
            # Dice come from the unrevealed encounter epoch if there is one, else from the
            # unrevealed table epoch (section 6).
            current = self.open.get("encounter", self.open.get("table"))
            if epoch != current:
                raise Fail(seq, "dice drawn from epoch %d, but the current epoch is %d" % (epoch, current))
            spans = f.get("spans")
            if not isinstance(spans, list):
                raise Fail(seq, "the spans of dice_drawn are not a list: %r" % spans)
            drawn["epoch"] = epoch
            drawn["sealed"] = f.get("sealed", [])
            if not isinstance(drawn["sealed"], list):
                raise Fail(seq, "the sealed list of dice_drawn is not a list")
            for s in spans:
                first, end = span(s, seq, "a span of dice_drawn")
                if first != e["next"] or end <= first:
                    raise Fail(seq, "epoch %d: the draw [%d, %d) does not continue from counter %d"
                               % (epoch, first, end, e["next"]))
                e["next"] = end
                drawn["draws"].append({"span": [first, end], "claimed": None})
        elif name == "epoch_revealed":
            seed = hex32(f.get("seed"), seq, "the seed")
            if seed_commitment(epoch, seed) != e["commitment"]:
                raise Fail(seq, "the seed of epoch %d does not match its commitment" % epoch)
            e["key"], e["phase"] = epoch_key(epoch, seed, e["contributions"]), "revealed"
            del self.open[e["purpose"]]
            if e["purpose"] == "table":  # the session ends: a new one bars nobody (rule 11)
                self.barred = {}
            revealed.append(epoch)

    def pick(self, seq, fact):
        """A random pick (section 5): sorted candidates, each once; the die its rule gives for
        that many; the candidate its face gives."""
        cands = fact.get("candidates")
        if (not isinstance(cands, list) or not cands or any(type(c) is not str for c in cands)
                or cands != sorted(set(cands))):
            raise Fail(seq, "a pick's candidates must be sorted, each once")
        n, die, face = len(cands), fact.get("die"), fact.get("face")
        want = next((d for d in PICK_DICE if SIDES[d] % n == 0), "d100")
        if die != want:
            raise Fail(seq, "a pick among %d candidates uses a %s, but the log says a %r" % (n, want, die))
        if type(face) is not int or not 1 <= face <= SIDES[die]:
            raise Fail(seq, "a pick's %s shows %r" % (die, face))
        sides = SIDES[die]
        index = (face - 1) % n if sides % n == 0 else (face - 1) * n // sides
        if fact.get("picked") != cands[index]:
            raise Fail(seq, "face %d on a %s picks %s, but the log says %r"
                       % (face, die, cands[index], fact.get("picked")))

    def die(self, seq, die, face, counters, drawn, count, number, index):
        """A die drawn from the epoch of the event's dice_drawn, on one of its spans. Only the
        viewer's own dice (`count`) claim their draw and count, in order (section 7): a later
        draw than the last counted die's, the very next one when the die `follows` another of
        its roll (`index` > 0). All are recomputed."""
        if die not in SIDES or type(face) is not int or not 1 <= face <= SIDES[die]:
            raise Fail(seq, "a die %r with face %r" % (die, face))
        if counters is None:
            raise Fail(seq, "a %s without the counters it was drawn on" % die)
        counters = span(counters, seq, "the counters of a %s" % die)
        at = next((i for i, d in enumerate(drawn["draws"]) if d["span"] == counters), None)
        if at is None:
            raise Fail(seq, "a %s on counters %s, which are not a draw of this event" % (die, counters))
        draw_ = drawn["draws"][at]
        if count:
            if draw_["claimed"] is not None:
                raise Fail(seq, "two dice claim the draw [%d, %d)" % tuple(counters))
            last = drawn["last"]
            if last is not None and (at != last + 1 if index > 0 else at <= last):
                raise Fail(seq, "a %s on counters [%d, %d) out of draw order: each die takes the draw "
                           "after the one before it" % (die, counters[0], counters[1]))
            draw_["claimed"] = (number, index)
            drawn["last"] = at
        self.epochs[drawn["epoch"]]["dice"].append((seq, die, face, counters, count, False))

    def recompute(self, epoch):
        e = self.epochs[epoch]
        if e["key"] is None:
            return
        for seq, die, face, (first, end), count, opened in e["dice"]:
            got, got_end = draw(e["key"], epoch, first, SIDES[die])
            if (got, got_end) != (face, end):
                if self.face_failure is None or seq < self.face_failure.seq:
                    self.face_failure = Fail(seq, "the %s on counters [%d, %d) of epoch %d shows %d, "
                                             "but the seed gives %d on [%d, %d)"
                                             % (die, first, end, epoch, face, got, first, got_end))
            elif count:
                self.checked += 1
            elif opened:
                self.opened += 1
        e["dice"] = []


def verify(header, events):
    """Returns (summary line, epochs with a test seed, dice not yet checkable, a line per epoch
    with withheld contributions); raises Fail."""
    v = Verifier(header)
    prev = bytes(32)
    for seq, ev in enumerate(events, 1):
        try:
            prev = v.event(seq, ev, prev)
        except (Fail, KeyError, TypeError, ValueError, AttributeError) as e:
            failure = e if isinstance(e, Fail) else Fail(seq, "malformed event (%r)" % e)
            if v.face_failure and v.face_failure.seq <= failure.seq:
                raise v.face_failure
            raise failure
    try:
        v.opening_due()
    except Fail as failure:
        raise v.face_failure if v.face_failure and v.face_failure.seq <= failure.seq else failure
    if v.ended is not None:
        failure = Fail(v.ended[0], "the encounter ends here, but the log ends before the seed of "
                                   "its epoch %d is revealed" % v.ended[1])
        raise v.face_failure if v.face_failure and v.face_failure.seq <= failure.seq else failure
    if v.face_failure:
        raise v.face_failure
    if header.get("event_count") != len(events):
        raise Fail(min(len(events), header.get("event_count") or 0) + 1, "the header announces %r "
                   "events, the file holds %d" % (header.get("event_count"), len(events)))
    v.unrevealed = sum(1 for e in v.epochs.values() for d in e["dice"] if d[4])
    # Each withheld contribution is one bit the withholder chose, and the host may have
    # invented that seat (section 1): W of them, 2^W keys to choose from.
    withheld = ["epoch %d: %d withheld contribution%s: the host could have chosen among %s keys"
                % (n, w, "" if w == 1 else "s", 2 ** w if w < 64 else "2^%d" % w)
                for n, w in sorted((n, e["withheld"]) for n, e in v.epochs.items() if e["withheld"])]
    # Rule 10: the same words as `tablehold verify`.
    if v.opened:
        withheld.append("%s hidden from this viewer when rolled, opened at the reveal and checked"
                        % ("1 die" if v.opened == 1 else "%d dice" % v.opened))
    if v.uncommitted:
        withheld.append("%s of format 3 or older hold%s dice kept from some seat, with no "
                        "commitment: no seat can check them"
                        % ("1 event" if v.uncommitted == 1 else "%d events" % v.uncommitted,
                           "s" if v.uncommitted == 1 else ""))
    return ("OK: %d events, %d epochs, %d dice checked (%d dice in epochs not yet revealed)"
            % (len(events), len(v.epochs), v.checked, v.unrevealed), v.test_seeds, v.unrevealed,
            withheld)


# --- Self-test against docs/fairness-vectors.json --------------------------------------------

def self_test():
    if not __debug__:
        raise AssertionError("run the self-test without python -O: it is made of asserts")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fairness-vectors.json")
    with open(path, encoding="utf-8") as f:
        v = json.load(f)
    assert (v["format"], v["version"]) == ("tablehold-fairness-vectors", 1)
    for lim in v["limits"]:
        n = lim["sides"]
        assert lim["limit"] == (1 << 32) // n * n == (1 << 32) - lim["rejected_words"]
    for case in v["cases"]:
        epoch, seed, key = case["epoch"], bytes.fromhex(case["seed"]), bytes.fromhex(case["key"])
        assert seed_commitment(epoch, seed).hex() == case["seed_commitment"]
        contributions = {}
        for s in case["seats"]:
            assert seat_bytes(s["seat"]).hex() == s["framed_seat"]
            commitment = entropy_commitment(epoch, s["seat"], bytes.fromhex(s["entropy"]))
            assert commitment.hex() == s["commitment"]
            value = s["entropy"] if s["outcome"] == "revealed" else withheld_replacement(commitment).hex()
            assert value == s["contribution"] == s.get("replacement", value)
            contributions[s["seat"]] = bytes.fromhex(value)
        assert epoch_key(epoch, seed, contributions) == key
        assert "key_preimage" not in case or sha(bytes.fromhex(case["key_preimage"])) == key
        message = b"tablehold-dice-v1" + be64(epoch) + be64(0)
        assert message.hex() == case["first_message"]
        assert hmac.new(key, message, hashlib.sha256).hexdigest() == case["first_block"]
        for row in case["words"]:
            assert word(key, epoch, row["counter"]) == row["word"]
            for die, face in zip(v["dice"], row["faces"]):
                assert draw(key, epoch, row["counter"], SIDES[die]) == (face, row["counter"] + 1)
        counter = 0
        for d in case.get("sequence", []):
            face, end = draw(key, epoch, counter, SIDES[d["die"]])
            assert [face, [counter, end]] == [d["face"], d["counters"]]
            counter = end
        for r in case.get("rolls", []):
            for d in r["dice"]:
                assert draw(key, epoch, d["counters"][0], SIDES[d["die"]]) == (d["face"], d["counters"][1])
    r = v["rejection"]
    key, sides = bytes.fromhex(r["key"]), SIDES[r["die"]]
    for a in r["attempts"]:
        assert word(key, r["epoch"], a["counter"]) == a["word"]
        assert (a["word"] < (1 << 32) // sides * sides) == a["accepted"]
    assert draw(key, r["epoch"], r["start"], sides) == (r["face"], r["counters"][1])
    assert draw(key, r["epoch"], r["start"], 20) == (r["same_counter_on_d20"], r["start"] + 1)
    h = v["hidden_dice"]
    assert hidden_commitment(bytes.fromhex(h["key"]), h["epoch"], h["text"]).hex() == h["commitment"]
    assert opened_dice(h["text"])["dice"][0]["face"] == 4
    for h in v["hidden_parts"]:
        assert sha(h["json"].encode("utf-8")).hex() == h["hash"]
    export = v["example_export"]
    assert verify(export["header"], export["events"])[:2] == (v["example_verdict"], [])
    # A verifier that cannot fail proves nothing: change the first face of the first roll.
    tampered = json.loads(json.dumps(export))
    seq, part = next((i, p) for i, ev in enumerate(tampered["events"], 1) for p in ev["parts"]
                     if '"fact":"rolled"' in p.get("json", ""))
    part["json"] = re.sub(r'"face":(\d+)', lambda m: '"face":%d' % (int(m.group(1)) % 20 + 1),
                          part["json"], count=1)
    try:
        verify(tampered["header"], tampered["events"])
        raise AssertionError("a changed face went unnoticed")
    except Fail as e:
        assert e.seq == seq, e.reason
    print("self-test OK: %s agrees with this verifier" % os.path.basename(path))


def main():
    ap = argparse.ArgumentParser(description="Verify a Tablehold log export (docs/FAIRNESS.md).")
    ap.add_argument("file", nargs="?", help="the export, document or lines layout")
    ap.add_argument("--allow-test-seed", action="store_true", help="pass logs made with a test seed")
    ap.add_argument("--self-test", action="store_true", help="check docs/fairness-vectors.json")
    args = ap.parse_args()
    if args.self_test:
        try:
            self_test()
        except (AssertionError, Fail, KeyError, ValueError, OSError) as e:
            where = traceback.extract_tb(e.__traceback__)[-1]
            print("self-test FAIL at verify.py line %d: %s %r" % (where.lineno, where.line, e))
            return 1
        return 0
    if not args.file:
        ap.error("give an export file, or --self-test")
    try:
        summary, test_seeds, unrevealed, withheld_lines = verify(*read_export(args.file))
    except Fail as e:
        print("FAIL at seq %d: %s" % (e.seq, e.reason))
        return 1
    except (OSError, UnicodeDecodeError) as e:
        print("FAIL at seq 0: cannot read %s (%s)" % (args.file, e))
        return 1
    for epoch in test_seeds:
        print("WARNING: epoch %d was opened with the insecure TEST SEED: its dice were "
              "predictable and prove nothing" % epoch)
    if test_seeds and not args.allow_test_seed:
        print("NOT ACCEPTED: this log uses a test seed (pass --allow-test-seed to accept it)")
        return 3
    print(summary)
    for line in withheld_lines:
        print(line)
    if unrevealed:
        print("NOT YET VERIFIABLE: %d dice in epochs whose seed is not revealed yet" % unrevealed)
        return 4
    return 0


if __name__ == "__main__":
    sys.exit(main())
