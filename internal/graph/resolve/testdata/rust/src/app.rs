use crate::net::Client;
use crate::util::{helper, deep};
use std::collections::HashMap;

pub fn run() {
    let c = Client::new();
    c.send();
    helper();
    deep::dive();
    c.close();
}
