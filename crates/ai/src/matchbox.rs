//! The matchbox learning machine of Stenger's "Associative Arrays" (Gardner's Hexapawn machine, HER) and
//! its MENACE-style variant (Michie's bead counts), for every game.
//!
//! The machine keeps one matchbox per position it has had to move in, keyed by the
//! position's text (side to move included). A new box gets beads for every legal
//! move; to move, the machine draws a bead at random and plays it.
//!
//! * `mode=gardner` (Stenger's "Associative Arrays", after Gardner): one bead per move. When the machine loses, the last
//!   bead it drew is thrown away, so it never loses that way again. If the box it must
//!   draw from is empty it resigns, which is a loss, and the bead that led there is
//!   thrown away (Stenger's `youLose` after `resign`).
//! * `mode=menace`: a box starts with `initial` beads per move (by the machine's move
//!   number in the game: `initial=4:3:2:1` gives 4 on its first move, 3 on its second,
//!   …, the last number repeating). After a win every bead it drew gets `win` more
//!   beads of its colour, after a draw `draw` more, after a loss `loss` fewer (never
//!   below zero) — in every box used in the game. An empty box resigns.
//!
//! With `symmetry=on` (the default) positions that are images of each other under
//! the game's symmetries share one box, kept under the image with the smallest text;
//! a drawn bead is mapped back through the inverse symmetry. A box holds one bead per
//! move *up to the position's own symmetries*: in a mirror-symmetric position the
//! two mirror-image moves are one bead, as on Gardner's boxes.
//!
//! Options text (after `matchbox:` or `menace:` in a player name), comma separated:
//! `mode=gardner|menace`, `symmetry=on|off`, `initial=N[:N...]`, `win=N`, `draw=N`,
//! `loss=N`. The bare words `gardner` and `menace` set the mode. Defaults: Gardner
//! mode `initial=1,loss=1`; MENACE mode `initial=16:4:2:1,win=3,draw=2,loss=1`
//! (Michie's original was `initial=4:3:2:1,win=3,draw=1,loss=1`).

use crate::player_options::{Kind, OptionSpec, PlayerOptions, ReadOptions, Value};
use rand::Rng as _;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use tabula_core::{Choice, Game, Notation, Outcome, Rng, Seat, Strategy, Symmetry};

/// How the machine learns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Gardner's machine: only the last bead drawn in a lost game is removed.
    Gardner,
    /// Michie's MENACE: every bead drawn is reinforced or punished by the result.
    Menace,
}

impl Mode {
    /// `"gardner"` or `"menace"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Gardner => "gardner",
            Mode::Menace => "menace",
        }
    }
}

/// Most beads an option may add, take or start a box with.
const MAX_BEADS: u64 = 1_000;

/// The options of `matchbox:` and `menace:`, for the shared reader; a word on
/// its own is the mode.
pub const MATCHBOX_OPTIONS: PlayerOptions = PlayerOptions::new(&[
    OptionSpec::new(
        "mode",
        "the way the machine learns",
        Kind::Choice(&["gardner", "menace"]),
    ),
    OptionSpec::new(
        "symmetry",
        "sharing a box between mirror images",
        Kind::OnOff,
    ),
    OptionSpec::new(
        "initial",
        "the beads a new box starts with",
        Kind::WholeList {
            min: 1,
            max: MAX_BEADS,
        },
    ),
    OptionSpec::new(
        "win",
        "the beads added after a win",
        Kind::Whole {
            min: 0,
            max: MAX_BEADS,
        },
    ),
    OptionSpec::new(
        "draw",
        "the beads added after a draw",
        Kind::Whole {
            min: 0,
            max: MAX_BEADS,
        },
    ),
    OptionSpec::new(
        "loss",
        "the beads taken after a loss",
        Kind::Whole {
            min: 0,
            max: MAX_BEADS,
        },
    ),
])
.nameless("mode");

/// Settings of a matchbox machine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchboxOptions {
    /// Learning rule.
    pub mode: Mode,
    /// Share boxes between positions that are symmetric images of each other.
    pub symmetry: bool,
    /// Beads per move in a new box, by the machine's move number in the game when
    /// the box is made (1st, 2nd, …); the last entry repeats. All at least 1.
    pub initial: Vec<u32>,
    /// Beads added per drawn bead after a win (MENACE mode).
    pub win: u32,
    /// Beads added per drawn bead after a draw (MENACE mode).
    pub draw: u32,
    /// Beads removed after a loss: from the last box (Gardner) or every box used (MENACE).
    pub loss: u32,
}

impl MatchboxOptions {
    /// Gardner's machine: one bead per move, the losing bead removed.
    pub fn gardner() -> Self {
        MatchboxOptions {
            mode: Mode::Gardner,
            symmetry: true,
            initial: vec![1],
            win: 0,
            draw: 0,
            loss: 1,
        }
    }

    /// MENACE settings tuned for tic-tac-toe against perfect play: 16, 4, 2, 1 beads
    /// per move by move number, +3 for a win, +2 for a draw, -1 for a loss. Michie's
    /// own 4:3:2:1 with +1 for a draw often empties its first box against a perfect
    /// opponent and then resigns for ever (see crates/ai/docs/matchbox.md).
    pub fn menace() -> Self {
        MatchboxOptions {
            mode: Mode::Menace,
            symmetry: true,
            initial: vec![16, 4, 2, 1],
            win: 3,
            draw: 2,
            loss: 1,
        }
    }

    /// The options of a player name: `matchbox` (Gardner defaults) or `menace`
    /// (MENACE defaults), then the options text (see the module documentation).
    pub fn for_player(name: &str, options: &str) -> Result<Self, String> {
        let base = match name.trim().to_ascii_lowercase().as_str() {
            "matchbox" | "gardner" => Self::gardner(),
            "menace" => Self::menace(),
            other => {
                return Err(format!(
                    "unknown learning player '{other}': expected matchbox or menace"
                ))
            }
        };
        base.with(options)
    }

    /// Reads an options text on top of the defaults of the mode it names (Gardner
    /// unless `mode=menace` or `menace` appears).
    pub fn parse(text: &str) -> Result<Self, String> {
        let read = MATCHBOX_OPTIONS.read(text).map_err(|e| e.to_string())?;
        let base = match read.choice("mode") {
            Some("menace") => Self::menace(),
            _ => Self::gardner(),
        };
        Ok(base.with_read(&read))
    }

    /// These options changed by an options text. Naming a mode switches to that mode's
    /// defaults before the other options are applied.
    pub fn with(self, text: &str) -> Result<Self, String> {
        let read = MATCHBOX_OPTIONS.read(text).map_err(|e| e.to_string())?;
        Ok(self.with_read(&read))
    }

    fn with_read(mut self, read: &ReadOptions) -> Self {
        let mode = match read.choice("mode") {
            Some("menace") => Some(Mode::Menace),
            Some(_) => Some(Mode::Gardner),
            None => None,
        };
        if let Some(mode) = mode.filter(|m| *m != self.mode) {
            let defaults = match mode {
                Mode::Gardner => Self::gardner(),
                Mode::Menace => Self::menace(),
            };
            self = Self {
                symmetry: self.symmetry,
                ..defaults
            };
        }
        // The reader has checked every range: 0 to 1000 beads fit a u32.
        for (name, value) in read.given() {
            match (name, value) {
                ("symmetry", Value::OnOff(on)) => self.symmetry = *on,
                ("initial", Value::List(list)) => {
                    self.initial = list.iter().map(|&n| n as u32).collect();
                }
                ("win", Value::Whole(n)) => self.win = *n as u32,
                ("draw", Value::Whole(n)) => self.draw = *n as u32,
                ("loss", Value::Whole(n)) => self.loss = *n as u32,
                _ => {}
            }
        }
        self
    }

    /// The options as text that [`MatchboxOptions::parse`] reads back.
    pub fn to_text(&self) -> String {
        let initial: Vec<String> = self.initial.iter().map(u32::to_string).collect();
        format!(
            "mode={},symmetry={},initial={},win={},draw={},loss={}",
            self.mode.as_str(),
            if self.symmetry { "on" } else { "off" },
            initial.join(":"),
            self.win,
            self.draw,
            self.loss
        )
    }

    /// The settings in plain words, for reports a player reads.
    pub fn describe(&self) -> String {
        let beads = |n: u32| {
            if n == 1 {
                "1 bead".to_string()
            } else {
                format!("{n} beads")
            }
        };
        let start = match self.initial.as_slice() {
            [n] => format!("{} for each possible move", beads(*n)),
            list => {
                let ordinal = |i: usize| match i + 1 {
                    1 => "1st".to_string(),
                    2 => "2nd".to_string(),
                    3 => "3rd".to_string(),
                    n => format!("{n}th"),
                };
                let last = list.len() - 1;
                let mut parts = vec![format!(
                    "{} for each possible move on its 1st move",
                    beads(list[0])
                )];
                for (i, n) in list.iter().enumerate().take(last).skip(1) {
                    parts.push(format!("{n} on its {}", ordinal(i)));
                }
                parts.push(format!("{} from its {} move on", list[last], ordinal(last)));
                parts.join(", ")
            }
        };
        let learning = match self.mode {
            Mode::Gardner => format!(
                "after a loss, {} taken from the box of its last move",
                beads(self.loss)
            ),
            Mode::Menace => format!(
                "after a win {} added for each bead played, after a draw {}, after a loss {} taken away",
                beads(self.win),
                self.draw,
                self.loss
            ),
        };
        let symmetry = if self.symmetry {
            "positions that are the same up to the board's symmetries share a box"
        } else {
            "every position has its own box"
        };
        let name = match self.mode {
            Mode::Gardner => "Gardner's matchboxes",
            Mode::Menace => "MENACE",
        };
        format!("{name}, where a new box holds {start}; {learning}; {symmetry}")
    }

    fn initial_beads(&self, move_number: usize) -> u32 {
        let i = move_number
            .saturating_sub(1)
            .min(self.initial.len().saturating_sub(1));
        self.initial.get(i).copied().unwrap_or(1).max(1)
    }
}

impl Default for MatchboxOptions {
    fn default() -> Self {
        Self::gardner()
    }
}

/// One box as shown to users: the position (canonical text) and its beads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoxContents {
    /// The position's text (the representative of its symmetry class).
    pub position: String,
    /// The machine's move number in the game when the box was made (sets its initial beads).
    #[serde(default)]
    pub made_at_move: u32,
    /// Each move (written for `position`) with its number of beads.
    pub beads: Vec<(String, u32)>,
}

/// Everything a machine has learned, as saved by [`Strategy::learned`].
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Learned {
    format: String,
    game: String,
    options: MatchboxOptions,
    games: u64,
    boxes: Vec<BoxContents>,
}

const FORMAT: &str = "tabula-matchbox-1";

/// A canonical position the machine has looked at, with its box once it has one.
#[derive(Clone, Debug)]
struct Slot<G: Game> {
    key: String,
    state: G::State,
    made_at_move: u32,
    beads: Option<Vec<(G::Move, u32)>>,
}

/// The matchbox machine. See the module documentation.
#[derive(Clone, Debug)]
pub struct Matchbox<G: Game> {
    game: G,
    options: MatchboxOptions,
    slots: Vec<Slot<G>>,
    by_key: HashMap<String, usize>,
    /// Position -> (slot, symmetry taking the position to the slot's state).
    lookup: HashMap<G::State, (usize, usize)>,
    /// Beads drawn in the current game: (slot, bead index).
    drawn: Vec<(usize, usize)>,
    games: u64,
    /// Bumped whenever the set of moves the machine may play changes somewhere.
    support_version: u64,
}

impl<G: Notation + Symmetry> Matchbox<G> {
    /// A machine with no boxes yet.
    pub fn new(game: &G, options: MatchboxOptions) -> Self {
        Matchbox {
            game: game.clone(),
            options,
            slots: Vec::new(),
            by_key: HashMap::new(),
            lookup: HashMap::new(),
            drawn: Vec::new(),
            games: 0,
            support_version: 0,
        }
    }

    /// A machine from an options text (see the module documentation).
    pub fn from_options(game: &G, text: &str) -> Result<Self, String> {
        Ok(Self::new(game, MatchboxOptions::parse(text)?))
    }

    /// A machine for the player name `matchbox` or `menace` with its options text.
    pub fn for_player(game: &G, name: &str, options: &str) -> Result<Self, String> {
        Ok(Self::new(game, MatchboxOptions::for_player(name, options)?))
    }

    /// The machine's settings.
    pub fn options(&self) -> &MatchboxOptions {
        &self.options
    }

    /// Number of matchboxes made so far.
    pub fn matchbox_count(&self) -> usize {
        self.slots.iter().filter(|s| s.beads.is_some()).count()
    }

    /// Beads in all boxes together.
    pub fn bead_count(&self) -> u64 {
        self.slots
            .iter()
            .filter_map(|s| s.beads.as_ref())
            .flatten()
            .map(|&(_, n)| u64::from(n))
            .sum()
    }

    /// Games the machine has learned from.
    pub fn games_learned(&self) -> u64 {
        self.games
    }

    /// Changes whenever a move becomes impossible (or possible again) in some box, so
    /// searches over the moves the machine may play know when to start afresh.
    pub fn support_version(&self) -> u64 {
        self.support_version
    }

    /// All boxes, in the order they were made, with moves written for their positions.
    pub fn boxes(&self) -> Vec<BoxContents> {
        self.slots
            .iter()
            .filter_map(|slot| self.contents(slot))
            .collect()
    }

    /// The box the machine would use in `state`, its beads written as moves of `state`
    /// itself (not of the box's representative), or `None` if it has no box yet.
    pub fn box_for(&mut self, state: &G::State) -> Option<Vec<(G::Move, u32)>> {
        let (slot, k) = self.locate(state);
        let slot = &self.slots[slot];
        let back = self.game.inverse_symmetry(k);
        slot.beads.as_ref().map(|beads| {
            beads
                .iter()
                .map(|&(mv, n)| (self.game.map_move(&slot.state, mv, back), n))
                .collect()
        })
    }

    /// The moves the machine may play in `state` (moves of `state`): those with beads
    /// left, or every legal move if it has no box there yet. Empty means it resigns.
    pub fn possible_moves(&mut self, state: &G::State, out: &mut Vec<G::Move>) {
        let (slot, k) = self.locate(state);
        match &self.slots[slot].beads {
            Some(beads) => {
                let back = self.game.inverse_symmetry(k);
                let canon = &self.slots[slot].state;
                out.extend(
                    beads
                        .iter()
                        .filter(|b| b.1 > 0)
                        .map(|&(mv, _)| self.game.map_move(canon, mv, back)),
                );
            }
            None => {
                let canon = self.slots[slot].state.clone();
                let back = self.game.inverse_symmetry(k);
                let reps = self.representative_moves(&canon);
                out.extend(
                    reps.into_iter()
                        .map(|mv| self.game.map_move(&canon, mv, back)),
                );
            }
        }
    }

    fn contents(&self, slot: &Slot<G>) -> Option<BoxContents> {
        let beads = slot.beads.as_ref()?;
        Some(BoxContents {
            position: slot.key.clone(),
            made_at_move: slot.made_at_move,
            beads: beads
                .iter()
                .map(|&(mv, n)| (self.game.format_move(&slot.state, mv), n))
                .collect(),
        })
    }

    /// The representative of a position's symmetry class: its text, the image, and the
    /// symmetry that maps the position onto it.
    fn canonical(&self, state: &G::State) -> (String, G::State, usize) {
        let mut best = (self.game.format_position(state), state.clone(), 0);
        if self.options.symmetry {
            for k in 1..self.game.symmetry_count() {
                let image = self.game.map_state(state, k);
                let text = self.game.format_position(&image);
                if text < best.0 {
                    best = (text, image, k);
                }
            }
        }
        best
    }

    /// The slot of a position (made, without a box, if new) and the symmetry to it.
    fn locate(&mut self, state: &G::State) -> (usize, usize) {
        if let Some(&found) = self.lookup.get(state) {
            return found;
        }
        let (key, canon, k) = self.canonical(state);
        let slot = match self.by_key.get(&key) {
            Some(&i) => i,
            None => {
                self.slots.push(Slot {
                    key: key.clone(),
                    state: canon,
                    made_at_move: 0,
                    beads: None,
                });
                self.by_key.insert(key, self.slots.len() - 1);
                self.slots.len() - 1
            }
        };
        self.lookup.insert(state.clone(), (slot, k));
        (slot, k)
    }

    /// Legal moves of a representative position, one per class of moves that the
    /// position's own symmetries make equivalent (all of them without symmetry).
    fn representative_moves(&self, canon: &G::State) -> Vec<G::Move> {
        let mut moves = Vec::new();
        self.game.legal_moves(canon, &mut moves);
        if !self.options.symmetry {
            return moves;
        }
        let stabiliser: Vec<usize> = (1..self.game.symmetry_count())
            .filter(|&k| self.game.map_state(canon, k) == *canon)
            .collect();
        if stabiliser.is_empty() {
            return moves;
        }
        let mut kept: Vec<G::Move> = Vec::with_capacity(moves.len());
        for mv in moves {
            if !kept.iter().any(|&m| {
                stabiliser
                    .iter()
                    .any(|&k| self.game.map_move(canon, m, k) == mv)
            }) {
                kept.push(mv);
            }
        }
        kept
    }

    fn remove_beads(&mut self, slot: usize, bead: usize, n: u32) {
        if let Some(entry) = self.slots[slot]
            .beads
            .as_mut()
            .and_then(|b| b.get_mut(bead))
        {
            let before = entry.1;
            entry.1 = entry.1.saturating_sub(n);
            if before > 0 && entry.1 == 0 {
                self.support_version += 1;
            }
        }
    }

    fn add_beads(&mut self, slot: usize, bead: usize, n: u32) {
        if let Some(entry) = self.slots[slot]
            .beads
            .as_mut()
            .and_then(|b| b.get_mut(bead))
        {
            if entry.1 == 0 && n > 0 {
                self.support_version += 1;
            }
            entry.1 = entry.1.saturating_add(n).min(1_000_000);
        }
    }

    /// Learns from the end of a game the machine played in `seat`.
    fn learn(&mut self, seat: Seat, outcome: Outcome) {
        let drawn = std::mem::take(&mut self.drawn);
        let result = outcome.sign_for(seat);
        match self.options.mode {
            Mode::Gardner => {
                if result < 0 {
                    if let Some(&(slot, bead)) = drawn.last() {
                        self.remove_beads(slot, bead, self.options.loss);
                    }
                }
            }
            Mode::Menace => {
                for &(slot, bead) in &drawn {
                    match result {
                        r if r > 0 => self.add_beads(slot, bead, self.options.win),
                        0 => self.add_beads(slot, bead, self.options.draw),
                        _ => self.remove_beads(slot, bead, self.options.loss),
                    }
                }
            }
        }
        self.games += 1;
    }

    fn restore(&mut self, learned: Learned) -> Result<(), String> {
        if learned.format != FORMAT {
            return Err(format!(
                "unknown matchbox format '{}' (expected {FORMAT})",
                learned.format
            ));
        }
        if learned.game != G::NAME {
            return Err(format!(
                "these matchboxes are for {}, not {}",
                learned.game,
                G::NAME
            ));
        }
        let mut fresh = Matchbox::new(&self.game, learned.options);
        fresh.games = learned.games;
        for b in learned.boxes {
            let state = self
                .game
                .parse_position(&b.position)
                .map_err(|e| format!("box '{}': {e}", b.position))?;
            let (key, _, _) = fresh.canonical(&state);
            if key != b.position {
                return Err(format!(
                    "box '{}' is not written as its symmetry class's representative '{key}'",
                    b.position
                ));
            }
            if fresh.by_key.contains_key(&key) {
                return Err(format!("box '{key}' appears twice"));
            }
            let mut beads = Vec::with_capacity(b.beads.len());
            for (text, n) in &b.beads {
                let mv = self
                    .game
                    .parse_move(&state, text)
                    .map_err(|e| format!("box '{key}', bead '{text}': {e}"))?;
                if beads.iter().any(|&(m, _)| m == mv) {
                    return Err(format!("box '{key}' lists the move '{text}' twice"));
                }
                beads.push((mv, (*n).min(1_000_000)));
            }
            fresh.slots.push(Slot {
                key: key.clone(),
                state,
                made_at_move: b.made_at_move,
                beads: Some(beads),
            });
            fresh.by_key.insert(key, fresh.slots.len() - 1);
        }
        fresh.support_version = self.support_version + 1;
        *self = fresh;
        Ok(())
    }
}

impl<G: Notation + Symmetry> Strategy<G> for Matchbox<G> {
    /// A box already made for the position and left without a bead: `choose`
    /// would resign there. (A box not yet made gets beads for every move.)
    fn would_resign(&self, _game: &G, state: &G::State, _seat: Seat) -> bool {
        let slot = match self.lookup.get(state) {
            Some(&(slot, _)) => Some(slot),
            None => self.by_key.get(&self.canonical(state).0).copied(),
        };
        slot.and_then(|i| self.slots[i].beads.as_deref())
            .is_some_and(|beads| beads.iter().all(|&(_, n)| n == 0))
    }

    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        _seat: Seat,
        rng: &mut Rng,
    ) -> Option<Choice<G::Move>> {
        let (slot, k) = self.locate(state);
        if self.slots[slot].beads.is_none() {
            let canon = self.slots[slot].state.clone();
            let n = self.options.initial_beads(self.drawn.len() + 1);
            let beads = self
                .representative_moves(&canon)
                .into_iter()
                .map(|mv| (mv, n))
                .collect();
            let entry = &mut self.slots[slot];
            entry.beads = Some(beads);
            entry.made_at_move = self.drawn.len() as u32 + 1;
        }
        let entry = &self.slots[slot];
        let beads = entry.beads.as_deref().unwrap_or(&[]);
        let total: u64 = beads.iter().map(|&(_, n)| u64::from(n)).sum();
        if total == 0 {
            return None; // An empty box: the machine resigns.
        }
        let mut pick = rng.gen_range(0..total);
        let bead = beads
            .iter()
            .position(|&(_, n)| {
                let hit = pick < u64::from(n);
                pick = pick.saturating_sub(u64::from(n));
                hit
            })
            .unwrap_or(0);
        let (canon_move, count) = beads[bead];
        let mv = game.map_move(&entry.state, canon_move, game.inverse_symmetry(k));
        self.drawn.push((slot, bead));
        // The chance the draw gave this move, said so that it cannot read as
        // "the first of two beads".
        let reason = if total == 1 {
            "the only bead in its box".to_string()
        } else {
            format!("this move has {count} of the {total} beads in its box")
        };
        Some(Choice::because(mv, reason))
    }

    fn game_over(&mut self, _game: &G, seat: Seat, outcome: Outcome) {
        self.learn(seat, outcome);
    }

    fn forget_game(&mut self) {
        self.drawn.clear();
    }

    fn learned(&self) -> Option<serde_json::Value> {
        let learned = Learned {
            format: FORMAT.into(),
            game: G::NAME.into(),
            options: self.options.clone(),
            games: self.games,
            boxes: self.boxes(),
        };
        serde_json::to_value(learned).ok()
    }

    fn load_learned(&mut self, value: &serde_json::Value) -> Result<(), String> {
        let learned: Learned = serde_json::from_value(value.clone())
            .map_err(|e| format!("cannot read the matchboxes: {e}"))?;
        self.restore(learned)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use tabula_core::{
        rng_from_seed, ExactAnalysis, MatchRules, Notation, ParseError, Players, Presentation,
        Symmetry, Turn, View,
    };

    /// Two piles; take 1 or 2 from one pile; whoever takes the last counter wins.
    /// Swapping the piles is its one symmetry.
    #[derive(Clone, Debug)]
    pub(crate) struct Piles;

    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub(crate) struct P {
        pub piles: [u8; 2],
        pub to_move: u8,
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub(crate) struct Take {
        pub pile: u8,
        pub n: u8,
    }

    impl Game for Piles {
        type State = P;
        type Move = Take;
        const NAME: &'static str = "piles";
        fn seats(&self) -> &'static [&'static str] {
            &["First", "Second"]
        }
        fn initial_state(&self) -> P {
            P {
                piles: [3, 2],
                to_move: 0,
            }
        }
        fn turn(&self, s: &P) -> Turn {
            if s.piles == [0, 0] {
                Turn::Over(Outcome::Win(1 - s.to_move as usize))
            } else {
                Turn::Move(s.to_move as usize)
            }
        }
        fn legal_moves(&self, s: &P, out: &mut Vec<Take>) {
            for pile in 0..2u8 {
                for n in 1..=2u8 {
                    if s.piles[pile as usize] >= n {
                        out.push(Take { pile, n });
                    }
                }
            }
        }
        fn play_unchecked(&self, s: &mut P, mv: Take) {
            s.piles[mv.pile as usize] -= mv.n;
            s.to_move ^= 1;
        }
    }

    impl Notation for Piles {
        fn parse_move(&self, s: &P, text: &str) -> Result<Take, ParseError> {
            let b = text.as_bytes();
            let mv = match b {
                [p @ (b'A' | b'B'), n @ (b'1' | b'2')] => Take {
                    pile: p - b'A',
                    n: n - b'0',
                },
                _ => return Err(ParseError::new("bad move")),
            };
            if s.piles[mv.pile as usize] < mv.n {
                return Err(ParseError::new("not enough counters"));
            }
            Ok(mv)
        }
        fn format_move(&self, _s: &P, mv: Take) -> String {
            format!("{}{}", (b'A' + mv.pile) as char, mv.n)
        }
        fn parse_position(&self, text: &str) -> Result<P, ParseError> {
            let v: Vec<u8> = text.split(' ').filter_map(|t| t.parse().ok()).collect();
            match v[..] {
                [a, b, s] if a <= 3 && b <= 3 && s <= 1 => Ok(P {
                    piles: [a, b],
                    to_move: s,
                }),
                _ => Err(ParseError::new("bad position")),
            }
        }
        fn format_position(&self, s: &P) -> String {
            format!("{} {} {}", s.piles[0], s.piles[1], s.to_move)
        }
    }

    impl Presentation for Piles {
        fn render_text(&self, s: &P) -> String {
            self.format_position(s)
        }
        fn view(&self, _s: &P) -> View {
            View::default()
        }
    }

    impl Symmetry for Piles {
        fn symmetry_count(&self) -> usize {
            2
        }
        fn map_state(&self, s: &P, k: usize) -> P {
            if k == 1 {
                P {
                    piles: [s.piles[1], s.piles[0]],
                    to_move: s.to_move,
                }
            } else {
                *s
            }
        }
        fn map_move(&self, _s: &P, mv: Take, k: usize) -> Take {
            if k == 1 {
                Take {
                    pile: 1 - mv.pile,
                    n: mv.n,
                }
            } else {
                mv
            }
        }
    }

    impl ExactAnalysis for Piles {
        fn is_small(&self) -> bool {
            true
        }
    }

    impl Players for Piles {}

    impl MatchRules for Piles {}

    fn at(a: u8, b: u8, to_move: u8) -> P {
        P {
            piles: [a, b],
            to_move,
        }
    }

    fn bead_texts(m: &Matchbox<Piles>, position: &str) -> Vec<(String, u32)> {
        m.boxes()
            .into_iter()
            .find(|b| b.position == position)
            .map(|b| b.beads)
            .unwrap_or_default()
    }

    #[test]
    fn options_text_reads_modes_and_values() {
        assert_eq!(
            MatchboxOptions::parse("").unwrap(),
            MatchboxOptions::gardner()
        );
        assert_eq!(
            MatchboxOptions::parse("menace").unwrap(),
            MatchboxOptions::menace()
        );
        let o =
            MatchboxOptions::parse("mode=menace, symmetry=off, initial=2:1, win=2, draw=0, loss=3")
                .unwrap();
        assert_eq!(
            (o.mode, o.symmetry, o.initial.clone(), o.win, o.draw, o.loss),
            (Mode::Menace, false, vec![2, 1], 2, 0, 3)
        );
        assert_eq!(MatchboxOptions::parse(&o.to_text()).unwrap(), o);
        // A mode named after other options still keeps them.
        let o = MatchboxOptions::parse("initial=5,menace").unwrap();
        assert_eq!(o.initial, vec![5]);
        let o = MatchboxOptions::for_player("menace", "symmetry=off").unwrap();
        assert_eq!((o.mode, o.symmetry, o.win), (Mode::Menace, false, 3));
        assert_eq!(
            MatchboxOptions::for_player("matchbox", "").unwrap(),
            MatchboxOptions::gardner()
        );
        for (bad, words) in [
            ("symmetry=maybe", "sharing a box between mirror images must be on or off"),
            ("mode=chess", "the way the machine learns must be gardner or menace"),
            ("initial=0", "the beads a new box starts with must be whole numbers from 1 to 1000"),
            ("initial=4::1", "the beads a new box starts with must be whole numbers from 1 to 1000"),
            ("win=-1", "the beads added after a win must be a whole number from 0 to 1000"),
            ("win=", "the beads added after a win must be a whole number from 0 to 1000"),
            ("colour=red", "this player has no option 'colour' (its options: mode, symmetry, initial, win, draw, loss)"),
            ("fast", "the way the machine learns must be gardner or menace"),
        ] {
            let err = MatchboxOptions::parse(bad).expect_err(bad);
            assert!(err.starts_with(words), "{bad}: {err}");
            assert_eq!(MatchboxOptions::for_player("menace", bad), Err(err));
        }
        assert!(MatchboxOptions::for_player("alphabeta", "").is_err());
    }

    #[test]
    fn a_new_box_has_one_bead_per_move_up_to_the_positions_symmetry() {
        let mut rng = rng_from_seed(1);
        let mut m = Matchbox::new(&Piles, MatchboxOptions::gardner());
        m.choose(&Piles, &at(2, 2, 0), 0, &mut rng).unwrap();
        // Taking from pile A or pile B is the same move here: two beads, not four.
        assert_eq!(
            bead_texts(&m, "2 2 0"),
            vec![("A1".into(), 1), ("A2".into(), 1)]
        );
        let mut plain = Matchbox::new(&Piles, MatchboxOptions::parse("symmetry=off").unwrap());
        plain.choose(&Piles, &at(2, 2, 0), 0, &mut rng).unwrap();
        assert_eq!(bead_texts(&plain, "2 2 0").len(), 4);
        assert_eq!((m.matchbox_count(), m.bead_count()), (1, 2));
    }

    #[test]
    fn mirror_positions_share_a_box_and_moves_map_back() {
        let mut rng = rng_from_seed(7);
        let mut m = Matchbox::new(&Piles, MatchboxOptions::gardner());
        let raw = at(3, 1, 0);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..200 {
            let mv = m.choose(&Piles, &raw, 0, &mut rng).unwrap().mv;
            assert!(
                Piles.moves_of(&raw).contains(&mv),
                "{mv:?} is not a move of {raw:?}"
            );
            seen.insert(mv);
            m.forget_game();
        }
        assert_eq!(seen.len(), 3, "every move of 3 1 gets drawn");
        m.choose(&Piles, &at(1, 3, 0), 0, &mut rng).unwrap();
        assert_eq!(m.matchbox_count(), 1);
        assert_eq!(m.boxes()[0].position, "1 3 0");
        let mut plain = Matchbox::new(&Piles, MatchboxOptions::parse("symmetry=off").unwrap());
        plain.choose(&Piles, &at(3, 1, 0), 0, &mut rng).unwrap();
        plain.choose(&Piles, &at(1, 3, 0), 0, &mut rng).unwrap();
        assert_eq!(plain.matchbox_count(), 2);
    }

    impl Piles {
        fn moves_of(&self, s: &P) -> Vec<Take> {
            let mut v = Vec::new();
            self.legal_moves(s, &mut v);
            v
        }
    }

    #[test]
    fn gardner_removes_only_the_last_bead_after_a_loss() {
        let mut rng = rng_from_seed(3);
        let mut m = Matchbox::new(&Piles, MatchboxOptions::parse("symmetry=off").unwrap());
        let first = m.choose(&Piles, &at(3, 2, 0), 0, &mut rng).unwrap().mv;
        let second = m.choose(&Piles, &at(1, 1, 0), 0, &mut rng).unwrap().mv;
        m.game_over(&Piles, 0, Outcome::Win(1));
        let last = bead_texts(&m, "1 1 0");
        let drawn = Piles.format_move(&at(1, 1, 0), second);
        for (mv, n) in &last {
            assert_eq!(*n, u32::from(*mv != drawn), "{mv}");
        }
        assert!(
            bead_texts(&m, "3 2 0").iter().all(|(_, n)| *n == 1),
            "{first:?} kept"
        );
        // Wins and draws teach Gardner's machine nothing.
        let before = m.bead_count();
        m.choose(&Piles, &at(3, 2, 0), 0, &mut rng).unwrap();
        m.game_over(&Piles, 0, Outcome::Win(0));
        m.choose(&Piles, &at(3, 2, 0), 0, &mut rng).unwrap();
        m.game_over(&Piles, 0, Outcome::Draw);
        assert_eq!(m.bead_count(), before);
        assert_eq!(m.games_learned(), 3);
    }

    #[test]
    fn an_empty_box_resigns_and_the_bead_that_led_there_goes() {
        let mut rng = rng_from_seed(5);
        let mut m = Matchbox::new(&Piles, MatchboxOptions::gardner());
        // Empty the box of 0 1 (one move: B1) by losing with it.
        m.choose(&Piles, &at(0, 1, 0), 0, &mut rng).unwrap();
        m.game_over(&Piles, 0, Outcome::Win(1));
        assert_eq!(bead_texts(&m, "0 1 0"), vec![("B1".into(), 0)]);
        assert_eq!(
            m.choose(&Piles, &at(1, 0, 0), 0, &mut rng),
            None,
            "mirror image, same empty box"
        );
        // Now a game that reaches it: the bead played before is removed.
        let mv = m.choose(&Piles, &at(0, 3, 0), 0, &mut rng).unwrap().mv;
        assert!(m.choose(&Piles, &at(0, 1, 0), 0, &mut rng).is_none());
        m.game_over(&Piles, 0, Outcome::Win(1));
        let text = Piles.format_move(&at(0, 3, 0), mv);
        let key = m
            .boxes()
            .iter()
            .find(|b| b.position.ends_with(" 0") && b.position.contains('3'))
            .unwrap()
            .position
            .clone();
        let beads = bead_texts(&m, &key);
        assert_eq!(
            beads.iter().filter(|(_, n)| *n == 0).count(),
            1,
            "{text} removed from {key}: {beads:?}"
        );
        let mut possible = Vec::new();
        m.possible_moves(&at(0, 1, 0), &mut possible);
        assert!(possible.is_empty());
        possible.clear();
        m.possible_moves(&at(2, 2, 1), &mut possible);
        assert_eq!(possible.len(), 2, "no box yet: every move up to symmetry");
    }

    #[test]
    fn settings_read_in_plain_words() {
        let g = MatchboxOptions::gardner().describe();
        assert!(
            g.starts_with(
                "Gardner's matchboxes, where a new box holds 1 bead for each possible move"
            ),
            "{g}"
        );
        assert!(g.contains("after a loss, 1 bead taken"), "{g}");
        assert!(g.contains("the same up to the board's symmetries"), "{g}");
        let m = MatchboxOptions::parse("menace,initial=4:3:2:1,win=3,draw=1,symmetry=off").unwrap();
        let m = m.describe();
        assert!(
            m.contains("4 beads for each possible move on its 1st move, 3 on its 2nd, 2 on its 3rd, 1 from its 4th move on"),
            "{m}"
        );
        assert!(
            m.contains("after a win 3 beads added for each bead played, after a draw 1"),
            "{m}"
        );
        assert!(m.contains("every position has its own box"), "{m}");
        for text in [g, m] {
            assert!(!text.contains('=') && !text.contains("symmetry"), "{text}");
        }
    }

    #[test]
    fn menace_reinforces_every_drawn_bead() {
        let mut rng = rng_from_seed(9);
        let opts =
            MatchboxOptions::parse("menace,symmetry=off,initial=4:2,win=3,draw=1,loss=1").unwrap();
        let mut m = Matchbox::new(&Piles, opts);
        let a = m.choose(&Piles, &at(3, 2, 0), 0, &mut rng).unwrap().mv;
        let b = m.choose(&Piles, &at(1, 1, 0), 0, &mut rng).unwrap().mv;
        let c = m
            .choose(&Piles, &at(0, 0, 0).with_piles(1, 0), 0, &mut rng)
            .unwrap()
            .mv;
        assert_eq!(
            m.boxes().iter().map(|b| b.made_at_move).collect::<Vec<_>>(),
            vec![1, 2, 3]
        );
        let count = |m: &Matchbox<Piles>, pos: P, mv: Take| {
            bead_texts(m, &Piles.format_position(&pos))
                .into_iter()
                .find(|(t, _)| *t == Piles.format_move(&pos, mv))
                .unwrap()
                .1
        };
        assert_eq!(
            (
                count(&m, at(3, 2, 0), a),
                count(&m, at(1, 1, 0), b),
                count(&m, at(1, 0, 0), c)
            ),
            (4, 2, 2)
        );
        m.game_over(&Piles, 0, Outcome::Win(0));
        assert_eq!(
            (
                count(&m, at(3, 2, 0), a),
                count(&m, at(1, 1, 0), b),
                count(&m, at(1, 0, 0), c)
            ),
            (7, 5, 5)
        );
        // A draw adds one to each bead drawn; a loss takes one away, never below zero.
        m.choose(&Piles, &at(1, 0, 0), 0, &mut rng).unwrap();
        m.game_over(&Piles, 0, Outcome::Draw);
        assert_eq!(count(&m, at(1, 0, 0), c), 6);
        let mut losses = 0;
        while m.choose(&Piles, &at(1, 0, 0), 0, &mut rng).is_some() {
            m.game_over(&Piles, 0, Outcome::Win(1));
            losses += 1;
        }
        assert_eq!((losses, count(&m, at(1, 0, 0), c)), (6, 0));
        m.game_over(&Piles, 0, Outcome::Win(1));
        assert_eq!(count(&m, at(1, 0, 0), c), 0);
        assert!(m.choose(&Piles, &at(1, 0, 0), 0, &mut rng).is_none());
    }

    impl P {
        fn with_piles(mut self, a: u8, b: u8) -> P {
            self.piles = [a, b];
            self
        }
    }

    #[test]
    fn learned_state_round_trips_and_bad_files_are_refused() {
        let mut rng = rng_from_seed(11);
        let mut m = Matchbox::new(&Piles, MatchboxOptions::menace());
        for _ in 0..20 {
            let mut s = Piles.initial_state();
            while let Turn::Move(seat) = Piles.turn(&s) {
                let mv = if seat == 0 {
                    m.choose(&Piles, &s, 0, &mut rng).map(|c| c.mv)
                } else {
                    Piles.moves_of(&s).first().copied()
                };
                let Some(mv) = mv else { break };
                Piles.play_unchecked(&mut s, mv);
            }
            let outcome = match Piles.turn(&s) {
                Turn::Over(o) => o,
                _ => Outcome::Win(1),
            };
            m.game_over(&Piles, 0, outcome);
        }
        let saved = m.learned().unwrap();
        let mut copy = Matchbox::new(&Piles, MatchboxOptions::gardner());
        copy.load_learned(&saved).unwrap();
        assert_eq!(copy.boxes(), m.boxes());
        assert_eq!(copy.options(), m.options());
        assert_eq!(copy.games_learned(), 20);
        assert_eq!(copy.learned().unwrap(), saved);

        let mut bad = saved.clone();
        bad["game"] = "chess".into();
        assert!(copy.load_learned(&bad).unwrap_err().contains("chess"));
        let mut bad = saved.clone();
        bad["boxes"][0]["position"] = "9 9 9".into();
        assert!(copy.load_learned(&bad).is_err());
        let mut bad = saved.clone();
        bad["boxes"][0]["beads"][0][0] = "Z9".into();
        assert!(copy.load_learned(&bad).is_err());
        assert!(copy.load_learned(&serde_json::json!({"boxes": 3})).is_err());
        // A failed load leaves the machine as it was.
        assert_eq!(copy.boxes(), m.boxes());
    }
}
