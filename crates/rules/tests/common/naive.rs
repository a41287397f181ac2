//! A deliberately naive reference implementation of both games, written from
//! `crates/rules/RULES.md` alone and sharing no code with the library: a plain 2D array of cells
//! (`cells[rank][file]`, rank 0 is rank 1), straightforward loops, clones instead of make/unmake,
//! exact board comparison for repetition over the whole history (no hashing, no window), and its
//! own notation writer and reader. Only the plain data types `Outcome`, `Reason` and `Side` are
//! borrowed from the library, so that outcomes can be compared with `==`.

use ludus_rules::{Outcome, Reason, Side};

/// (file, rank), both 0-based; `(0, 0)` is a1.
pub type Sq = (usize, usize);

/// Which game a board belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Latrunculi,
    Alquerque,
}

/// A piece: side 0 is Red/White (moves first), side 1 is Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub side: usize,
    pub king: bool,
}

/// A board with the side to move and the plies since the last capture.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub kind: Kind,
    pub w: usize,
    pub h: usize,
    pub cells: Vec<Vec<Option<Piece>>>,
    pub side: usize,
    pub clock: u32,
}

/// A move: the start square, every landing square, and the captured squares (sorted).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RefMove {
    pub from: Sq,
    pub path: Vec<Sq>,
    pub captured: Vec<Sq>,
}

impl RefMove {
    pub fn to(&self) -> Sq {
        *self.path.last().expect("a move has a landing square")
    }
}

pub fn side_of(i: usize) -> Side {
    if i == 0 { Side::First } else { Side::Second }
}

pub fn sq_name(sq: Sq) -> String {
    format!("{}{}", (b'a' + sq.0 as u8) as char, sq.1 + 1)
}

const ORTHO: [(i64, i64); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const ALL8: [(i64, i64); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

impl Board {
    pub fn empty(kind: Kind, w: usize, h: usize) -> Board {
        Board { kind, w, h, cells: vec![vec![None; w]; h], side: 0, clock: 0 }
    }

    pub fn inside(&self, f: i64, r: i64) -> bool {
        f >= 0 && r >= 0 && (f as usize) < self.w && (r as usize) < self.h
    }

    pub fn at(&self, sq: Sq) -> Option<Piece> {
        self.cells[sq.1][sq.0]
    }

    pub fn set(&mut self, sq: Sq, p: Option<Piece>) {
        self.cells[sq.1][sq.0] = p;
    }

    /// Same pieces on the same squares and the same side to move (the counter is ignored).
    pub fn same(&self, other: &Board) -> bool {
        self.cells == other.cells && self.side == other.side
    }

    pub fn squares(&self) -> Vec<Sq> {
        let mut v = Vec::new();
        for r in 0..self.h {
            for f in 0..self.w {
                v.push((f, r));
            }
        }
        v
    }

    pub fn count(&self, side: usize) -> usize {
        self.squares().into_iter().filter(|&s| self.at(s).is_some_and(|p| p.side == side)).count()
    }

    pub fn soldiers(&self, side: usize) -> usize {
        self.squares().into_iter().filter(|&s| self.at(s).is_some_and(|p| p.side == side && !p.king)).count()
    }

    fn king_square(&self, side: usize) -> Sq {
        self.squares()
            .into_iter()
            .find(|&s| self.at(s) == Some(Piece { side, king: true }))
            .expect("every Latrunculi side has a king")
    }

    /// Empty orthogonal neighbours of `side`'s king.
    pub fn king_liberties(&self, side: usize) -> usize {
        let (f, r) = self.king_square(side);
        ORTHO
            .iter()
            .filter(|(df, dr)| {
                let (x, y) = (f as i64 + df, r as i64 + dr);
                self.inside(x, y) && self.cells[y as usize][x as usize].is_none()
            })
            .count()
    }

    // ----- notation (our own writer and reader) -----

    pub fn notation(&self) -> String {
        let mut s = String::new();
        for r in (0..self.h).rev() {
            let mut run = 0;
            for f in 0..self.w {
                match self.cells[r][f] {
                    None => run += 1,
                    Some(p) => {
                        if run > 0 {
                            s += &run.to_string();
                            run = 0;
                        }
                        s.push(self.letter(p));
                    }
                }
            }
            if run > 0 {
                s += &run.to_string();
            }
            if r > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(match (self.kind, self.side) {
            (Kind::Latrunculi, 0) => 'r',
            (Kind::Alquerque, 0) => 'w',
            _ => 'b',
        });
        if self.clock > 0 {
            s += &format!(" {}", self.clock);
        }
        s
    }

    fn letter(&self, p: Piece) -> char {
        match (self.kind, p.side, p.king) {
            (Kind::Latrunculi, 0, false) => 'r',
            (Kind::Latrunculi, 0, true) => 'R',
            (Kind::Latrunculi, _, false) => 'b',
            (Kind::Latrunculi, _, true) => 'B',
            (Kind::Alquerque, 0, _) => 'W',
            (Kind::Alquerque, _, _) => 'B',
        }
    }

    /// Reads well-formed notation (panics on anything else: test data only).
    pub fn parse(kind: Kind, s: &str) -> Board {
        let fields: Vec<&str> = s.split_whitespace().collect();
        let mut rows: Vec<Vec<Option<Piece>>> = Vec::new();
        for rank in fields[0].split('/') {
            let mut row = Vec::new();
            let mut num = String::new();
            for c in rank.chars() {
                if c.is_ascii_digit() {
                    num.push(c);
                    continue;
                }
                if !num.is_empty() {
                    let n: usize = num.parse().unwrap();
                    row.extend(std::iter::repeat_n(None, n));
                    num.clear();
                }
                let p = match (kind, c) {
                    (Kind::Latrunculi, 'r') => Piece { side: 0, king: false },
                    (Kind::Latrunculi, 'R') => Piece { side: 0, king: true },
                    (Kind::Latrunculi, 'b') => Piece { side: 1, king: false },
                    (Kind::Latrunculi, 'B') => Piece { side: 1, king: true },
                    (Kind::Alquerque, 'W') => Piece { side: 0, king: false },
                    (Kind::Alquerque, 'B') => Piece { side: 1, king: false },
                    _ => panic!("bad letter {c} in {s}"),
                };
                row.push(Some(p));
            }
            if !num.is_empty() {
                let n: usize = num.parse().unwrap();
                row.extend(std::iter::repeat_n(None, n));
            }
            rows.push(row);
        }
        rows.reverse();
        let side = match fields[1] {
            "r" | "w" => 0,
            "b" => 1,
            other => panic!("bad side {other}"),
        };
        let clock = fields.get(2).map_or(0, |c| c.parse().unwrap());
        Board { kind, w: rows[0].len(), h: rows.len(), cells: rows, side, clock }
    }

    pub fn move_notation(&self, mv: &RefMove) -> String {
        let sep = if self.kind == Kind::Alquerque && !mv.captured.is_empty() { "x" } else { "-" };
        let mut s = sq_name(mv.from);
        for &p in &mv.path {
            s += sep;
            s += &sq_name(p);
        }
        s
    }

    // ----- move generation -----

    /// Every legal move, sorted.
    pub fn moves(&self) -> Vec<RefMove> {
        let mut v = match self.kind {
            Kind::Latrunculi => self.latrunculi_moves(),
            Kind::Alquerque => self.alquerque_moves(),
        };
        v.sort();
        v
    }

    fn latrunculi_moves(&self) -> Vec<RefMove> {
        let mut out = Vec::new();
        for from in self.squares() {
            match self.at(from) {
                Some(p) if p.side == self.side => {}
                _ => continue,
            }
            for (df, dr) in ORTHO {
                let mut x = from.0 as i64 + df;
                let mut y = from.1 as i64 + dr;
                while self.inside(x, y) && self.cells[y as usize][x as usize].is_none() {
                    let to = (x as usize, y as usize);
                    out.push(RefMove { from, path: vec![to], captured: self.sandwiches(from, to) });
                    x += df;
                    y += dr;
                }
            }
        }
        out
    }

    /// The enemy soldiers a Latrunculi slide from `from` to `to` removes.
    fn sandwiches(&self, from: Sq, to: Sq) -> Vec<Sq> {
        let me = self.side;
        // The board after the slide, before any capture: `from` empty, the mover on `to`.
        let after = |x: i64, y: i64| -> Option<Piece> {
            let sq = (x as usize, y as usize);
            if sq == from {
                None
            } else if sq == to {
                self.at(from)
            } else {
                self.at(sq)
            }
        };
        let mut out = Vec::new();
        for (df, dr) in ORTHO {
            let (x1, y1) = (to.0 as i64 + df, to.1 as i64 + dr);
            let (x2, y2) = (to.0 as i64 + 2 * df, to.1 as i64 + 2 * dr);
            if !self.inside(x1, y1) || !self.inside(x2, y2) {
                continue;
            }
            let near_is_enemy_soldier = after(x1, y1).is_some_and(|p| p.side != me && !p.king);
            let far_is_ours = after(x2, y2).is_some_and(|p| p.side == me);
            if near_is_enemy_soldier && far_is_ours {
                out.push((x1 as usize, y1 as usize));
            }
        }
        out.sort();
        out
    }

    /// Whether a line is drawn from (f, r) in direction (df, dr) on the Alquerque board.
    fn line(f: usize, r: usize, df: i64, dr: i64) -> bool {
        if df != 0 && dr != 0 { (f + r).is_multiple_of(2) } else { true }
    }

    fn alquerque_moves(&self) -> Vec<RefMove> {
        let me = self.side;
        let mut captures = Vec::new();
        for from in self.squares() {
            if self.at(from).is_none_or(|p| p.side != me) {
                continue;
            }
            let mut cells = self.cells.clone();
            cells[from.1][from.0] = None; // the start counts as empty once the piece leaves
            let mut path = Vec::new();
            let mut captured = Vec::new();
            self.jumps(&mut cells, from, from, &mut path, &mut captured, &mut captures);
        }
        if !captures.is_empty() {
            return captures;
        }
        let mut steps = Vec::new();
        for from in self.squares() {
            if self.at(from).is_none_or(|p| p.side != me) {
                continue;
            }
            for (df, dr) in ALL8 {
                // Forward is up the board for White (side 0), down for Black; sideways is dr 0.
                let allowed = if me == 0 { dr >= 0 } else { dr <= 0 };
                if !allowed || !Board::line(from.0, from.1, df, dr) {
                    continue;
                }
                let (x, y) = (from.0 as i64 + df, from.1 as i64 + dr);
                if self.inside(x, y) && self.cells[y as usize][x as usize].is_none() {
                    steps.push(RefMove { from, path: vec![(x as usize, y as usize)], captured: Vec::new() });
                }
            }
        }
        steps
    }

    fn jumps(
        &self,
        cells: &mut Vec<Vec<Option<Piece>>>,
        from: Sq,
        at: Sq,
        path: &mut Vec<Sq>,
        captured: &mut Vec<Sq>,
        out: &mut Vec<RefMove>,
    ) {
        let me = self.side;
        let mut extended = false;
        for (df, dr) in ALL8 {
            if !Board::line(at.0, at.1, df, dr) {
                continue;
            }
            let (x1, y1) = (at.0 as i64 + df, at.1 as i64 + dr);
            let (x2, y2) = (at.0 as i64 + 2 * df, at.1 as i64 + 2 * dr);
            if !self.inside(x1, y1) || !self.inside(x2, y2) {
                continue;
            }
            let over = (x1 as usize, y1 as usize);
            let land = (x2 as usize, y2 as usize);
            let enemy = cells[over.1][over.0].is_some_and(|p| p.side != me);
            if enemy && cells[land.1][land.0].is_none() {
                let removed = cells[over.1][over.0].take();
                path.push(land);
                captured.push(over);
                self.jumps(cells, from, land, path, captured, out);
                captured.pop();
                path.pop();
                cells[over.1][over.0] = removed;
                extended = true;
            }
        }
        if !extended && !path.is_empty() {
            let mut c = captured.clone();
            c.sort();
            out.push(RefMove { from, path: path.clone(), captured: c });
        }
    }

    // ----- playing and ending -----

    pub fn play(&self, mv: &RefMove) -> Board {
        let mut b = self.clone();
        let piece = b.at(mv.from);
        assert!(piece.is_some_and(|p| p.side == self.side));
        b.set(mv.from, None);
        for &c in &mv.captured {
            b.set(c, None);
        }
        b.set(mv.to(), piece);
        b.side = 1 - self.side;
        b.clock = if mv.captured.is_empty() { self.clock + 1 } else { 0 };
        b
    }

    /// Every rule of `crates/rules/RULES.md` but "no legal move", judged as if the side not to move
    /// had just moved into this board; `threefold` says whether that move made a third occurrence.
    pub fn rule_outcome(&self, threefold: bool) -> Option<Outcome> {
        let opp = self.side; // to move
        let mover = 1 - opp; // just moved
        match self.kind {
            Kind::Latrunculi => {
                if self.king_liberties(opp) == 0 {
                    return Some(Outcome::win(side_of(mover), Reason::KingImmobilised));
                }
                if self.king_liberties(mover) == 0 {
                    return Some(Outcome::win(side_of(opp), Reason::KingImmobilised));
                }
                if self.soldiers(opp) == 0 {
                    return Some(Outcome::win(side_of(mover), Reason::OnlyKingLeft));
                }
                if threefold {
                    return Some(Outcome::win(side_of(opp), Reason::Repetition));
                }
                if self.clock >= 100 {
                    let (a, b) = (self.count(0), self.count(1));
                    return Some(if a > b {
                        Outcome::win(Side::First, Reason::NoCaptureLimit)
                    } else if b > a {
                        Outcome::win(Side::Second, Reason::NoCaptureLimit)
                    } else {
                        Outcome::draw(Reason::NoCaptureLimit)
                    });
                }
                None
            }
            Kind::Alquerque => {
                if self.count(opp) == 0 {
                    return Some(Outcome::win(side_of(mover), Reason::NoPieces));
                }
                if threefold {
                    return Some(Outcome::draw(Reason::Repetition));
                }
                if self.clock >= 50 {
                    return Some(Outcome::draw(Reason::NoCaptureLimit));
                }
                None
            }
        }
    }

    /// Whether the side to move has a legal move. In Latrunculi that is a piece with an empty
    /// orthogonal neighbour (a slide of one square); in Alquerque, any generated move.
    pub fn has_move(&self) -> bool {
        match self.kind {
            Kind::Latrunculi => self.squares().into_iter().any(|(f, r)| {
                self.cells[r][f].is_some_and(|p| p.side == self.side)
                    && ORTHO.iter().any(|(df, dr)| {
                        let (x, y) = (f as i64 + df, r as i64 + dr);
                        self.inside(x, y) && self.cells[y as usize][x as usize].is_none()
                    })
            }),
            Kind::Alquerque => !self.moves().is_empty(),
        }
    }

    /// All rules, "no legal move" last.
    pub fn outcome(&self, threefold: bool) -> Option<Outcome> {
        self.rule_outcome(threefold).or_else(|| {
            if !self.has_move() {
                Some(Outcome::win(side_of(1 - self.side), Reason::NoLegalMove))
            } else {
                None
            }
        })
    }
}

/// Whether the last board of `history` occurs in it for the third time.
pub fn threefold(history: &[Board]) -> bool {
    let cur = history.last().expect("history is never empty");
    history.iter().filter(|b| b.same(cur)).count() >= 3
}

/// A game: every board since the start and the outcome.
pub struct RefGame {
    pub history: Vec<Board>,
    pub outcome: Option<Outcome>,
}

impl RefGame {
    pub fn new(start: Board) -> RefGame {
        let outcome = start.outcome(false);
        RefGame { history: vec![start], outcome }
    }

    pub fn current(&self) -> &Board {
        self.history.last().expect("history is never empty")
    }

    pub fn repetitions(&self) -> usize {
        let cur = self.current();
        self.history.iter().filter(|b| b.same(cur)).count()
    }

    pub fn play(&mut self, mv: &RefMove) {
        assert!(self.outcome.is_none(), "move after the end");
        assert!(self.current().moves().contains(mv), "illegal reference move");
        let next = self.current().play(mv);
        self.history.push(next);
        self.outcome = self.current().outcome(threefold(&self.history));
    }
}

/// Perft as `crates/rules/RULES.md` defines it, from a board with no history.
pub fn perft(root: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if root.outcome(false).is_some() {
        return 0;
    }
    let mut history = vec![root.clone()];
    perft_inner(&mut history, depth)
}

fn perft_inner(history: &mut Vec<Board>, depth: u32) -> u64 {
    let moves = history.last().unwrap().moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for mv in &moves {
        let child = history.last().unwrap().play(mv);
        history.push(child);
        if history.last().unwrap().outcome(threefold(history)).is_none() {
            total += perft_inner(history, depth - 1);
        }
        history.pop();
    }
    total
}
