package pgtest

import (
	"net"
	"strconv"
	"testing"
	"time"
)

func TestStartAcceptsConnections(t *testing.T) {
	s := Start(t)
	c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(s.Port), 5*time.Second)
	if err != nil {
		t.Fatalf("dial the started server: %v", err)
	}
	c.Close()
}
