/*
 * bcryptprimitives.dll for wine 8 (Debian bookworm's wine64). Used only by .ci/run, which
 * builds it with Debian's gcc-mingw-w64-x86-64 and copies it into a throwaway wine
 * prefix's system32 to run mcpwire's Windows test binaries (docs/portability.md). It is
 * never shipped and never loaded on a real Windows machine.
 *
 * Why it exists, two gaps between wine 8 and the Windows that Go 1.26 expects:
 *
 * 1. Go 1.22 and later get random bytes from ProcessPrng in bcryptprimitives.dll (Windows
 *    10 and later ship it). Wine 8 does not, so every Go Windows binary dies at start with
 *    "bcryptprimitives.dll not found". ProcessPrng below fills the buffer from advapi32's
 *    SystemFunction036 (RtlGenRandom), which wine implements.
 *
 * 2. Go's os.RemoveAll (and t.TempDir's cleanup) deletes with NtSetInformationFile class
 *    FileDispositionInformationEx (64) and POSIX semantics, as Windows 10 1607 and later
 *    do. Wine 8 does not implement that class and answers STATUS_NOT_IMPLEMENTED, which Go
 *    reports as "unlinkat ...: Invalid function." Go already falls back to the classic
 *    FileDispositionInformation delete when the system answers STATUS_INVALID_INFO_CLASS
 *    (an older Windows) or STATUS_NOT_SUPPORTED (FAT). Go's runtime loads this DLL before
 *    any other code runs, so DllMain points ntdll's export of NtSetInformationFile at a
 *    wrapper that turns wine's STATUS_NOT_IMPLEMENTED for class 64, and only that, into
 *    STATUS_INVALID_INFO_CLASS: the deletion still happens, through Go's own fallback,
 *    and any other failure is reported as before. Nothing in ntdll's code is changed;
 *    callers that resolved the export earlier (wine's own DLLs) are unaffected.
 *
 * Build: x86_64-w64-mingw32-gcc -shared -O2 -o bcryptprimitives.dll bcryptprimitives.c
 */
#include <windows.h>
#include <string.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
	while (length > 0) {
		ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
		if (!SystemFunction036(data, chunk))
			return FALSE;
		data += chunk;
		length -= chunk;
	}
	return TRUE;
}

#define FILE_DISPOSITION_INFORMATION_EX_CLASS 64
#define STATUS_NOT_IMPLEMENTED_ ((LONG)0xC0000002)
#define STATUS_INVALID_INFO_CLASS_ ((LONG)0xC0000003)

typedef LONG(WINAPI *set_information_file)(HANDLE, PVOID, PVOID, ULONG, ULONG);

static set_information_file real_set_information_file;

static LONG WINAPI set_information_file_hook(HANDLE file, PVOID iosb, PVOID info, ULONG length, ULONG class)
{
	LONG status = real_set_information_file(file, iosb, info, length, class);
	if (class == FILE_DISPOSITION_INFORMATION_EX_CLASS && status == STATUS_NOT_IMPLEMENTED_)
		return STATUS_INVALID_INFO_CLASS_;
	return status;
}

/* An export's address is a 32-bit offset from its DLL's base: the jump to the wrapper is
 * put in a page allocated above ntdll's image, within reach of such an offset. */
static BYTE *stub_near(BYTE *base, DWORD image_size)
{
	ULONG_PTR at = ((ULONG_PTR)base + image_size + 0xFFFF) & ~(ULONG_PTR)0xFFFF;
	for (; at < (ULONG_PTR)base + 0xF0000000u; at += 0x10000) {
		BYTE *p = VirtualAlloc((LPVOID)at, 4096, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
		if (p)
			return p;
	}
	return NULL;
}

static void hook_set_information_file(void)
{
	BYTE *base = (BYTE *)GetModuleHandleW(L"ntdll.dll");
	if (!base)
		return;
	IMAGE_NT_HEADERS64 *nt = (IMAGE_NT_HEADERS64 *)(base + ((IMAGE_DOS_HEADER *)base)->e_lfanew);
	IMAGE_DATA_DIRECTORY dir = nt->OptionalHeader.DataDirectory[IMAGE_DIRECTORY_ENTRY_EXPORT];
	if (!dir.VirtualAddress)
		return;
	IMAGE_EXPORT_DIRECTORY *exp = (IMAGE_EXPORT_DIRECTORY *)(base + dir.VirtualAddress);
	DWORD *names = (DWORD *)(base + exp->AddressOfNames);
	WORD *ordinals = (WORD *)(base + exp->AddressOfNameOrdinals);
	DWORD *functions = (DWORD *)(base + exp->AddressOfFunctions);
	for (DWORD i = 0; i < exp->NumberOfNames; i++) {
		if (strcmp((char *)(base + names[i]), "NtSetInformationFile") != 0)
			continue;
		DWORD *slot = &functions[ordinals[i]];
		BYTE *stub = stub_near(base, nt->OptionalHeader.SizeOfImage);
		if (!stub)
			return;
		/* jmp qword ptr [rip+0]; .quad set_information_file_hook */
		static const BYTE jmp[6] = {0xFF, 0x25, 0, 0, 0, 0};
		ULONG_PTR target = (ULONG_PTR)set_information_file_hook;
		memcpy(stub, jmp, sizeof jmp);
		memcpy(stub + sizeof jmp, &target, sizeof target);
		DWORD old;
		VirtualProtect(stub, 4096, PAGE_EXECUTE_READ, &old);
		real_set_information_file = (set_information_file)(base + *slot);
		if (!VirtualProtect(slot, sizeof *slot, PAGE_READWRITE, &old))
			return;
		*slot = (DWORD)(stub - base);
		VirtualProtect(slot, sizeof *slot, old, &old);
		return;
	}
}

BOOL WINAPI DllMain(HINSTANCE instance, DWORD reason, LPVOID reserved)
{
	(void)instance;
	(void)reserved;
	if (reason == DLL_PROCESS_ATTACH)
		hook_set_information_file();
	return TRUE;
}
