package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpwire/mcpwire/internal/fsys"
)

// signalError is how a SIGINT or SIGTERM stops mcpwire's writes (issue 11): the write
// under way removes its temporary file and the transaction under way is undone, as on
// a failure; mcpwire then exits with 128 + the signal's number, as a shell reports a
// process a signal ended.
type signalError struct{ sig syscall.Signal }

func (e *signalError) Error() string { return "interrupted by " + signalName(e.sig) }
func (e *signalError) Unwrap() error { return fsys.ErrInterrupted }

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// exitCode is the exit status for a run that sig interrupted.
func (e *signalError) exitCode() int { return 128 + int(e.sig) }

// signalStop connects SIGINT and SIGTERM to an fsys.Interrupt, but only while a write
// is under way (fsys arms it when one begins and disarms it when the last ends): at
// any other moment the signals keep their default action, so a command that writes
// nothing (probe, session's client) is not affected, and start-up does no work for it.
type signalStop struct {
	intr   *fsys.Interrupt
	ch     chan os.Signal
	stderr io.Writer
}

// newSignalStop returns the Interrupt of the real filesystem; a signal received
// while nothing is being written ends the process at once with the message on stderr.
func newSignalStop(stderr io.Writer) *fsys.Interrupt {
	s := &signalStop{stderr: stderr}
	s.intr = fsys.NewInterrupt(s.arm, s.disarm)
	return s.intr
}

func (s *signalStop) arm() {
	s.ch = make(chan os.Signal, 1)
	signal.Notify(s.ch, os.Interrupt, syscall.SIGTERM)
	go s.watch(s.ch)
}

func (s *signalStop) disarm() {
	signal.Stop(s.ch) // no signal is sent on s.ch once Stop returns
	close(s.ch)
}

// watch stops the writes at the first signal; when none is under way any more (it
// ended as the signal arrived), it exits as the default action would have.
func (s *signalStop) watch(ch <-chan os.Signal) {
	for sig := range ch {
		n, _ := sig.(syscall.Signal)
		err := &signalError{sig: n}
		if !s.intr.Stop(err) {
			fmt.Fprintf(s.stderr, "mcpwire: error: %v\n", err)
			os.Exit(err.exitCode())
		}
	}
}

// interruptedCode turns the exit code of a run into that of a run a signal
// interrupted: the error already printed says what was undone; when the signal came
// after the last write had finished, that is said here.
func interruptedCode(env *Env, code int) int {
	var se *signalError
	if !errors.As(env.interrupt.Err(), &se) {
		return code
	}
	if code == exitOK {
		fmt.Fprintf(env.Stderr, "mcpwire: error: %v after its writes had finished\n", se)
	}
	return se.exitCode()
}
