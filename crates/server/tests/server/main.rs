//! Integration tests of the server over real UDP and WebSocket sockets on 127.0.0.1 (one test
//! binary; every test runs its own server on free ports and stops by itself).

mod attacks;
mod attacks_http;
mod chat;
mod clock;
mod common;
mod dependency_bugs;
mod draws;
mod fairness;
mod http;
mod layout;
mod names;
mod nodes;
mod oracle;
mod persistence;
mod play;
mod ratings;
mod robustness;
mod storage;
mod turn_bots;
mod turns;
