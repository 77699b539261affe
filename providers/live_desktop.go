package providers

// Desktop apps: what they load is their user file; what decides whether a stdio
// server starts is the PATH they get. Claude Desktop and LM Studio get the login
// session's (on macOS launchd's, not the shell's: "spawn npx ENOENT"); the editors
// built on VS Code, and Zed, ask the login shell for its environment when they start.
func claudeDesktopLive() *Live { return &Live{Launch: LaunchDesktop} }
func lmStudioLive() *Live      { return &Live{Launch: LaunchDesktop} }

// editorLive is the editors': their files in scope order, a shell's PATH.
func editorLive() *Live { return &Live{Launch: LaunchLoginShell} }
