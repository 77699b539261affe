// Package hint attaches advice to an error. The CLI prints an error's text on its
// "mcpwire: error:" line and each hint on a "mcpwire: hint:" line of its own, so an
// error says what is wrong and its hints say what to do; advice never sits inside
// the error text.
package hint

// Hinter is an error that carries hint lines. Error types with hints of their own
// implement it; Wrap gives any error some.
type Hinter interface {
	Hints() []string
}

// Wrap returns err with hint lines. The result unwraps to err, so errors.Is and
// errors.As see through it.
func Wrap(err error, hints ...string) error {
	return &hinted{err: err, hints: hints}
}

// hinted is an error with hint lines.
type hinted struct {
	err   error
	hints []string
}

func (e *hinted) Error() string   { return e.err.Error() }
func (e *hinted) Unwrap() error   { return e.err }
func (e *hinted) Hints() []string { return e.hints }
