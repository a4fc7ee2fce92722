package agent

import "time"

// HealthWaitDelay bounds how long a health check waits for a killed CLI's
// output pipes to close after its context ends.
const HealthWaitDelay = 2 * time.Second
