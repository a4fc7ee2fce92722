package forges_test

import "strconv"

func strconvItoa(n int64) string { return strconv.FormatInt(n, 10) }
