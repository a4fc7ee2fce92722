/*
 * bcryptprimitives.c — the one export of Windows' bcryptprimitives.dll that
 * Go >= 1.22 needs for random numbers (ProcessPrng), over BCryptGenRandom.
 * Wine 8 ships no bcryptprimitives.dll, so Go programs cannot start under
 * it; scripts/wine/setup.sh builds this with mingw-w64 into the test
 * prefix's system32. Test use only: never shipped.
 */
#include <windows.h>
#include <bcrypt.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (BCryptGenRandom(NULL, data, n, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0)
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
