package suites

import "github.com/nipcl/nipcl-conform/suites/framework"

// Env is the per-run configuration Define registers cases for (an alias of
// framework.Env, so an embedding suite needs only this package).
type Env = framework.Env

// Delays are the OK→state delays a relay has shown (framework.Delays).
type Delays = framework.Delays
