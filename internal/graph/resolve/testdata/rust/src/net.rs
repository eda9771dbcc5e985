pub struct Client;

impl Client {
    pub fn new() -> Client { Client }
    pub fn send(&self) {}
    pub fn close(&self) {}
}
