package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSaveProxyKeepsTheOtherLines(t *testing.T) {
	s := newSandbox(t)
	for _, v := range ProxyVars {
		t.Setenv(v, "")
	}
	env := write(t, filepath.Join(s.appHome, ".env"), "# keys\nALBERT_API_KEY='k'\nexport HTTPS_PROXY=http://old:1\n")
	c := s.load(t, Overrides{})
	if _, err := c.SaveProxy("HTTPS_PROXY", "http://proxy.example:3128"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SaveProxy("NO_PROXY", "localhost,.intra"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(env)
	want := "# keys\nALBERT_API_KEY='k'\nHTTPS_PROXY='http://proxy.example:3128'\nNO_PROXY='localhost,.intra'\n"
	if string(b) != want {
		t.Errorf(".env =\n%s\nwant\n%s", b, want)
	}
	got := map[string]ProxySetting{}
	for _, p := range s.load(t, Overrides{}).ProxySettings() {
		got[p.Name] = p
	}
	if got["HTTPS_PROXY"].Value != "http://proxy.example:3128" || got["HTTPS_PROXY"].From != env || got["HTTP_PROXY"].From != "" {
		t.Errorf("settings = %+v", got)
	}
	if _, err := c.SaveProxy("HTTPS_PROXY", ""); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(env); strings.Contains(string(b), "HTTPS_PROXY") || !strings.Contains(string(b), "ALBERT_API_KEY") {
		t.Errorf("after removing HTTPS_PROXY, .env =\n%s", b)
	}
	if st, _ := os.Stat(env); st.Mode().Perm() != 0o600 {
		t.Errorf(".env mode = %v, want 0600: it holds API keys", st.Mode().Perm())
	}
	for _, bad := range [][2]string{{"ALL_PROXY", "x"}, {"HTTP_PROXY", "a'b"}} {
		if _, err := c.SaveProxy(bad[0], bad[1]); err == nil {
			t.Errorf("SaveProxy(%q, %q) succeeded", bad[0], bad[1])
		}
	}
}
