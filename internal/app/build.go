package app

func userAgent() string { return "albert-code/" + Version() }
