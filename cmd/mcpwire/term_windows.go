//go:build windows

package main

import "golang.org/x/sys/windows"

// enableEscapes turns on escape-sequence processing for a console handle; a console
// that refuses it (before Windows 10) is not coloured.
func enableEscapes(fd uintptr) bool {
	h := windows.Handle(fd)
	var mode uint32
	if err := windows.GetConsoleMode(h, &mode); err != nil {
		return false
	}
	if mode&windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING != 0 {
		return true
	}
	return windows.SetConsoleMode(h, mode|windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING) == nil
}
