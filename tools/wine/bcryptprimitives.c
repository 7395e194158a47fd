/* A stand-in for Windows's bcryptprimitives.dll, for running Kairos under Debian 12's Wine 8
 * in tests only (never shipped). Rust's standard library asks that DLL for ProcessPrng, which
 * Wine 8 lacks (Wine 9 has it); RtlGenRandom (advapi32's SystemFunction036) gives the same
 * bytes from the system's generator. Built by scripts/wine-e2e.sh and placed next to the .exe. */
#include <windows.h>
#include <ntsecapi.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG chunk = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!RtlGenRandom(data, chunk)) return FALSE;
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
