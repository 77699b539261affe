package fsys

// The helpers of this package's tests, for its external tests (package fsys_test):
// those run on the fakes of internal/fsys/fsystest, which imports fsys.
var (
	Dependent       = dependent
	DirState        = dirState
	EditAppend      = editAppend
	EditRemove      = editRemove
	EditSet         = editSet
	FileMode        = fileMode
	FileState       = fileState
	GuardedTargets  = guardedTargets
	KeptDirs        = keptDirs
	ListTree        = listTree
	NoTemp          = noTemp
	Octal           = octal
	RollbackFixture = rollbackFixture
	State           = state
	WriteTestFile   = writeTestFile
)
