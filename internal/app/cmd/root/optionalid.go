package root

// optionalID is the value of a flag whose argument may be left out (--resume [ID]).
// It calls itself a bool so the help shows "--resume ID" alone: pflag prints the
// value a string flag takes without an argument, here the internal pickSession.
type optionalID struct{ to *string }

// optionalIDAbsent is what pflag passes when the flag has no argument; a bool's
// "true" keeps pflag's help from printing it.
const optionalIDAbsent = "true"

func (o optionalID) Set(v string) error {
	if v == optionalIDAbsent {
		v = pickSession
	}
	*o.to = v
	return nil
}

func (o optionalID) String() string {
	if o.to == nil || *o.to == pickSession {
		return ""
	}
	return *o.to
}

func (optionalID) Type() string { return "bool" }
