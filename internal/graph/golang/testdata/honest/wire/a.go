package wire

func init() { g() }

func init() { h() }
