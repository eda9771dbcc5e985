package chatview

// ScrollUp moves the view n lines towards the start of the conversation.
func (v *View) ScrollUp(n int) {
	if len(v.items) == 0 {
		return
	}
	if v.follow {
		v.anchorAtBottom()
	}
	v.follow = false
	for n > 0 {
		if v.topLine >= n {
			v.topLine -= n
			return
		}
		n -= v.topLine
		if v.top == 0 {
			v.topLine = 0
			return
		}
		v.top--
		v.topLine = len(v.lines(v.top))
	}
}

// ScrollDown moves the view n lines towards the end; reaching it follows new lines.
func (v *View) ScrollDown(n int) {
	if v.follow || len(v.items) == 0 {
		return
	}
	for n > 0 {
		rest := len(v.lines(v.top)) - v.topLine
		if n < rest {
			v.topLine += n
			break
		}
		n -= rest
		if v.top == len(v.items)-1 {
			v.topLine = len(v.lines(v.top))
			break
		}
		v.top++
		v.topLine = 0
	}
	if v.atBottom() {
		v.follow = true
	}
}

// PageUp and PageDown scroll by a screen less two lines of context.
func (v *View) PageUp()   { v.ScrollUp(max(v.height-2, 1)) }
func (v *View) PageDown() { v.ScrollDown(max(v.height-2, 1)) }

// Top jumps to the first line; only the first screen is rendered.
func (v *View) Top() {
	if len(v.items) > 0 {
		v.follow, v.top, v.topLine = false, 0, 0
	}
}

// Bottom jumps to the latest line and follows new ones.
func (v *View) Bottom() { v.follow = true }

// anchorAtBottom sets top/topLine to the first line of the bottom screen.
func (v *View) anchorAtBottom() {
	need := v.height
	for i := len(v.items) - 1; i >= 0; i-- {
		n := len(v.lines(i))
		if i == len(v.items)-1 {
			n-- // the trailing separator is not drawn at the bottom
		}
		if n >= need {
			v.top, v.topLine = i, n-need
			return
		}
		need -= n
	}
	v.top, v.topLine = 0, 0
}

// atBottom reports whether the lines from the anchor to the end fit the screen.
func (v *View) atBottom() bool {
	n := -v.topLine - 1
	for i := v.top; i < len(v.items); i++ {
		n += len(v.lines(i))
		if n > v.height {
			return false
		}
	}
	return true
}

// clampTop keeps the anchor inside the items after they changed.
func (v *View) clampTop() {
	if v.top >= len(v.items) {
		v.top, v.topLine = max(len(v.items)-1, 0), 0
	}
	if n := len(v.lines(v.top)); v.topLine >= n {
		v.topLine = max(n-1, 0)
	}
}
