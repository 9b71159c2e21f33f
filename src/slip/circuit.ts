// The slip client's circuit breaker: after enough outages in a row, calls fail at once for a while rather
// than wait on a service that is down.
import { CircuitState as BreakerState, ConsecutiveBreaker, circuitBreaker, handleWhen } from "cockatiel";
import type { CircuitBreakerPolicy } from "cockatiel";
import { ServiceUnavailableError } from "./errors.js";
import type { Settings } from "./settings.js";
import type { CircuitState } from "./types.js";

function circuitStateName(state: BreakerState): CircuitState {
  switch (state) {
    case BreakerState.Closed:
      return "closed";
    case BreakerState.HalfOpen:
      return "half_open";
    default:
      return "open";
  }
}

/** The breaker, telling the observer each change of state. */
export function createCircuit(settings: Settings): CircuitBreakerPolicy {
  // Only outages open the circuit: a refused request or an expired package is an answer, not a failure.
  const breaker = circuitBreaker(
    handleWhen((error) => error instanceof ServiceUnavailableError),
    { halfOpenAfter: settings.breakForMs, breaker: new ConsecutiveBreaker(settings.breakAfterFailures) },
  );
  breaker.onStateChange((state) => settings.observer?.circuit(circuitStateName(state)));
  return breaker;
}
