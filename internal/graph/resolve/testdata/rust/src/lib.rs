pub mod net;
pub mod util;
pub mod app;

pub fn top() {}
