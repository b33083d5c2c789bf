//! The local runner's parts: the in-process stack (emulator, API, sender pollers,
//! timer pump), the scripted receiver and the console display.

pub mod delay_ends;
pub mod display;
pub mod loopback;
pub mod receiver;
pub mod recurring;
pub mod stack;
