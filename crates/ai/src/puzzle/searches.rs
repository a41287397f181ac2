//! The searches of the puzzle generator and verifier, either run to their end when asked
//! ([`Searches::now`]) or a slice at a time ([`Searches::sliced`]) for callers that must never
//! wait long (the game's "Puzzles from this game", in the browser's frames).
//!
//! Sliced, the work is replayed: the code that asks for searches runs from its start again and
//! again; the searches already finished answer at once, in the order they were asked, and the
//! first one not yet finished answers `None` (the caller gives up this run and is run again
//! once [`Searches::step`] has finished that search). The code must ask for the same searches
//! in the same order each time, which it does as long as it depends on nothing but their
//! answers. One transposition table goes from each search to the next in the order they are
//! asked, so the answers are those of a run straight through.

use crate::{Search, SearchGame, TranspositionTable};

/// A search's answer: its raw score (for its root's side to move) and principal variation.
pub type Answer<M> = (i32, Vec<M>);

/// The searches of one piece of work.
pub struct Searches<P: SearchGame> {
    /// The answers so far, in the order asked (sliced only).
    answers: Vec<Answer<P::Move>>,
    /// The next answer to give in this run.
    next: usize,
    /// The search under way (sliced only).
    running: Option<Search<P>>,
    table: Option<TranspositionTable>,
    table_mb: usize,
    sliced: bool,
}

impl<P: SearchGame> Searches<P> {
    /// Every search runs to its end when asked; a table of `table_mb` MB.
    pub fn now(table_mb: usize) -> Searches<P> {
        Searches { answers: Vec::new(), next: 0, running: None, table: None, table_mb, sliced: false }
    }

    /// Searches run by [`Searches::step`]; a table of `table_mb` MB.
    pub fn sliced(table_mb: usize) -> Searches<P> {
        Searches { sliced: true, ..Searches::now(table_mb) }
    }

    /// The answer of the next search asked for, made by `make` with the table; `None` while
    /// it is not finished (sliced).
    pub fn search(&mut self, make: impl FnOnce(TranspositionTable) -> Search<P>) -> Option<Answer<P::Move>> {
        if let Some(answer) = self.answers.get(self.next) {
            self.next += 1;
            return Some(answer.clone());
        }
        if self.running.is_some() {
            return None;
        }
        let table = self.table.take().unwrap_or_else(|| TranspositionTable::new(self.table_mb));
        let mut search = make(table);
        if self.sliced {
            self.running = Some(search);
            return None;
        }
        search.run_to_end();
        let info = search.info();
        self.table = Some(search.into_table());
        Some((info.raw_score, info.pv))
    }

    /// Whether a search is under way: the last run gave up waiting for it.
    pub fn waiting(&self) -> bool {
        self.running.is_some()
    }

    /// Runs the search under way for about `budget` nodes; `true` once it is finished (or
    /// there is none): then run the work again from its start, after [`Searches::replay`].
    pub fn step(&mut self, budget: u64) -> bool {
        let Some(search) = self.running.as_mut() else { return true };
        search.step(budget);
        if !search.is_done() {
            return false;
        }
        if let Some(search) = self.running.take() {
            let info = search.info();
            self.table = Some(search.into_table());
            self.answers.push((info.raw_score, info.pv));
        }
        true
    }

    /// Starts a new run of the work: the answers are given again from the first.
    pub fn replay(&mut self) {
        self.next = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Level, Limits};
    use ludus_rules::{GamePosition, Variant, alquerque};

    fn ask(
        s: &mut Searches<alquerque::Position>,
        pos: alquerque::Position,
    ) -> Option<Answer<alquerque::Move>> {
        s.search(|tt| Search::with_table(pos, &[], Limits::depth(4), Level::Hard.params_fixed(), 7, tt))
    }

    #[test]
    fn sliced_searches_answer_as_searches_run_now() {
        let ludus_rules::AnyPosition::Alquerque(start) = Variant::Alquerque.start() else { panic!() };
        let next = start.play_unchecked(&start.legal_moves()[0]);
        let mut now = Searches::now(1);
        let expected = [ask(&mut now, start).unwrap(), ask(&mut now, next).unwrap()];
        let mut sliced = Searches::sliced(1);
        let mut runs = 0;
        let answers = loop {
            runs += 1;
            sliced.replay();
            let answers = ask(&mut sliced, start).and_then(|a| Some([a, ask(&mut sliced, next)?]));
            if let Some(a) = answers {
                break a;
            }
            assert!(sliced.waiting());
            while !sliced.step(50) {}
        };
        assert_eq!(answers, expected);
        assert_eq!(runs, 3, "one run per search, then the answers");
    }
}
