//! A move in motion: an eased slide, or Alquerque hops that arc over the jumped pieces, captured
//! pieces that shrink away and a burst where each is taken, in step with the animation speed.

use crate::board::layout::BoardLayout;
use crate::board::meshes::BoardShapes;
use bevy::prelude::*;
use ludus_rules::{AnyMove, Square};

/// An animated move.
pub struct MoveAnim {
    piece: Entity,
    /// The start and every landing point, in board units.
    waypoints: Vec<Vec2>,
    /// Whether the segments are hops (Alquerque jumps) rather than slides.
    hops: bool,
    segment: f32,
    elapsed: f32,
    /// Captured piece entities and when their removal starts.
    captured: Vec<(Entity, f32)>,
    /// The bursts where pieces are taken.
    bursts: Vec<Burst>,
    total: f32,
}

/// A short burst where a piece is taken: a ring that widens and sparks that fly out, in step
/// with the piece's removal (and the animation speed: none when animations are off).
struct Burst {
    at: Vec2,
    start: f32,
    duration: f32,
    ring: Entity,
    sparks: Vec<(Entity, Vec2)>,
}

/// How many sparks a burst throws.
const SPARKS: usize = 8;

/// How long a captured piece takes to go, and its burst to fade, at normal speed (seconds).
const CAPTURE_SECONDS: f32 = 0.3;

/// An ease in and out (cubic).
pub(crate) fn ease(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    if t < 0.5 { 4.0 * t * t * t } else { 1.0 - (-2.0 * t + 2.0).powi(3) / 2.0 }
}

impl MoveAnim {
    /// Starts animating `mv` by the piece `piece` under `root`, at the speed `factor` (1 is
    /// normal, larger is slower). `piece_at` finds the entity of the piece on a square (the
    /// captured ones); `hops` for an Alquerque capture. Spawns the bursts, hidden until their
    /// time, and puts the piece above the others.
    pub(crate) fn start(
        commands: &mut Commands,
        kit: &BoardShapes,
        layout: &BoardLayout,
        root: Entity,
        (piece, mv, hops): (Entity, &AnyMove, bool),
        factor: f32,
        piece_at: impl Fn(Square) -> Option<Entity>,
    ) -> MoveAnim {
        let mut waypoints = vec![layout.local(mv.from())];
        waypoints.extend(mv.path().iter().map(|&s| layout.local(s)));
        let distance = (waypoints[1] - waypoints[0]).length();
        let segment = factor * if hops { 0.32 } else { 0.18 + 0.035 * distance };
        let n = (waypoints.len() - 1) as f32;
        // When the i-th captured piece starts to go: as the hop passes over it, or at the end.
        let start_of = |i: usize| if hops { segment * (i as f32 + 0.5) } else { segment * n };
        let captured: Vec<(Entity, f32)> = mv
            .captured()
            .iter()
            .enumerate()
            .filter_map(|(i, &sq)| piece_at(sq).map(|e| (e, start_of(i))))
            .collect();
        let capture_time = if captured.is_empty() { 0.0 } else { CAPTURE_SECONDS * factor };
        let bursts = mv
            .captured()
            .iter()
            .enumerate()
            .map(|(i, &sq)| spawn_burst(commands, kit, root, layout.local(sq), i, start_of(i), factor))
            .collect();
        let size = 2.0 * layout.piece_radius();
        commands.entity(piece).insert(
            Transform::from_xyz(waypoints[0].x, waypoints[0].y, 8.0).with_scale(Vec3::new(size, size, 1.0)),
        );
        MoveAnim {
            piece,
            waypoints,
            hops,
            segment,
            elapsed: 0.0,
            captured,
            bursts,
            total: segment * n + capture_time,
        }
    }

    /// The jumps of an Alquerque chain landed so far (board units), numbered from 1: empty for
    /// any other move.
    pub fn chain_landings(&self) -> Vec<(Vec2, usize)> {
        let n = self.waypoints.len() - 1;
        if !self.hops || n < 2 {
            return Vec::new();
        }
        (1..=n).filter(|&i| self.elapsed >= self.segment * i as f32).map(|i| (self.waypoints[i], i)).collect()
    }

    /// Moves the animation on by `dt` seconds: the piece, the captured pieces and the bursts, for
    /// pieces `size` board units wide. Returns whether it is over.
    pub(crate) fn advance(&mut self, dt: f32, transforms: &mut Query<&mut Transform>, size: f32) -> bool {
        self.elapsed += dt;
        self.move_piece(transforms, size);
        for &(e, start) in &self.captured {
            if self.elapsed >= start
                && let Ok(mut t) = transforms.get_mut(e)
            {
                let k = ((self.elapsed - start) / CAPTURE_SECONDS).clamp(0.0, 1.0);
                let s = size * (1.0 - ease(k)) * (1.0 + 0.3 * (k * std::f32::consts::PI).sin());
                t.scale = Vec3::new(s.max(0.0), s.max(0.0), 1.0);
                t.rotation = Quat::from_rotation_z(k * 1.5);
            }
        }
        for burst in &self.bursts {
            burst.show(self.elapsed, transforms, size);
        }
        self.elapsed >= self.total
    }

    /// The moving piece: along its segment, lifted in the middle of a hop.
    fn move_piece(&self, transforms: &mut Query<&mut Transform>, size: f32) {
        let n = self.waypoints.len() - 1;
        let moving = self.elapsed.min(self.segment * n as f32);
        let i = ((moving / self.segment) as usize).min(n - 1);
        let u = ((moving - self.segment * i as f32) / self.segment).clamp(0.0, 1.0);
        let (a, b) = (self.waypoints[i], self.waypoints[i + 1]);
        let Ok(mut t) = transforms.get_mut(self.piece) else { return };
        let p = a.lerp(b, ease(u));
        if self.hops {
            let lift = (std::f32::consts::PI * u).sin();
            t.translation = Vec3::new(p.x, p.y + 0.35 * lift, 8.0);
            t.scale = Vec3::new(size * (1.0 + 0.25 * lift), size * (1.0 + 0.25 * lift), 1.0);
        } else {
            t.translation = Vec3::new(p.x, p.y, 8.0);
        }
    }
}

/// The `i`-th burst of a move, at `at` (board units), starting at `start` seconds: a ring and
/// sparks, spawned hidden (scale 0).
fn spawn_burst(
    commands: &mut Commands,
    kit: &BoardShapes,
    root: Entity,
    at: Vec2,
    i: usize,
    start: f32,
    factor: f32,
) -> Burst {
    let hidden = |z: f32| {
        (
            Mesh2d(kit.circle.clone()),
            MeshMaterial2d(kit.burst.clone()),
            Transform::from_xyz(at.x, at.y, z).with_scale(Vec3::ZERO),
            ChildOf(root),
        )
    };
    let ring = commands.spawn(hidden(9.0)).insert(Mesh2d(kit.ring.clone())).id();
    let sparks = (0..SPARKS)
        .map(|k| {
            let angle = std::f32::consts::TAU * (k as f32 + 0.5 * (i % 2) as f32) / SPARKS as f32;
            (commands.spawn(hidden(9.1)).id(), Vec2::from_angle(angle))
        })
        .collect();
    Burst { at, start, duration: CAPTURE_SECONDS * factor, ring, sparks }
}

impl Burst {
    /// The burst `elapsed` seconds into the move: widening and fading while it lasts, hidden
    /// before and after.
    fn show(&self, elapsed: f32, transforms: &mut Query<&mut Transform>, size: f32) {
        let k = (elapsed - self.start) / self.duration;
        let on = (0.0..1.0).contains(&k);
        let out = 1.0 - (1.0 - k.clamp(0.0, 1.0)).powi(2);
        if let Ok(mut t) = transforms.get_mut(self.ring) {
            let s = if on { size * (0.7 + 0.8 * out) } else { 0.0 };
            t.scale = Vec3::new(s, s, 1.0);
        }
        for &(e, dir) in &self.sparks {
            if let Ok(mut t) = transforms.get_mut(e) {
                let p = self.at + dir * size * (0.4 + 0.7 * out);
                let s = if on { size * 0.24 * (1.0 - k) } else { 0.0 };
                t.translation = Vec3::new(p.x, p.y, t.translation.z);
                t.scale = Vec3::new(s, s, 1.0);
            }
        }
    }
}
