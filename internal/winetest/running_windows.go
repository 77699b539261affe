package winetest

import "golang.org/x/sys/windows"

// running: wine's ntdll exports wine_get_version, which no Windows ntdll has.
var running = windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
