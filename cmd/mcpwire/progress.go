package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// progressDelay is how long an operation runs before its progress is drawn: a quick
// one draws nothing.
const progressDelay = 150 * time.Millisecond

// progress shows how far a long operation is (U7): one line on stderr, "probe:
// 3/20 servers", rewritten in place as steps end and erased at the end, so that what
// is printed next starts on a clean line. It is drawn only on a terminal and never
// for --json: a pipe, a file or a program reading JSON never sees it. A nil
// *progress does nothing, so callers need no checks.
type progress struct {
	w           io.Writer
	label, unit string
	total       int

	mu    sync.Mutex
	done  int
	width int // of the line on the screen, 0 when none is
	ended bool
	timer *time.Timer
}

// startProgress starts the progress of total steps, drawn first after progressDelay.
// It returns nil when stderr is not a terminal, for JSON output, and for fewer than
// two steps.
func (e *Env) startProgress(label, unit string, total int, asJSON bool) *progress {
	s := e.diag()
	if !s.tty || asJSON || total < 2 {
		return nil
	}
	p := &progress{w: s.w, label: label, unit: unit, total: total}
	p.timer = time.AfterFunc(progressDelay, func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if !p.ended {
			p.draw()
		}
	})
	return p
}

// step counts one finished step; it may be called from any goroutine.
func (p *progress) step() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if p.width > 0 && !p.ended {
		p.draw()
	}
}

// end stops drawing and erases the line.
func (p *progress) end() {
	if p == nil {
		return
	}
	p.timer.Stop()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ended = true
	if p.width > 0 {
		io.WriteString(p.w, "\r"+strings.Repeat(" ", p.width)+"\r")
	}
}

// draw rewrites the line: a carriage return and spaces, which every terminal
// understands (TERM=dumb included), rather than an erase sequence.
func (p *progress) draw() {
	line := fmt.Sprintf("%s: %d/%d %s", p.label, p.done, p.total, p.unit)
	pad := max(p.width-len(line), 0)
	io.WriteString(p.w, "\r"+line+strings.Repeat(" ", pad))
	p.width = max(p.width, len(line))
}
