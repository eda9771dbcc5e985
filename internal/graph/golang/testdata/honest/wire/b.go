package wire

func init() { pair() }
