/**
 * Counts the turns of this thread's event loop (a setImmediate that schedules itself) until
 * stopped: work that holds the loop from a call to its answer leaves the count where it was.
 */
export function countTurns(): { readonly turns: number; stop(): void } {
  let turns = 0;
  let spinning = true;
  const spin = () => {
    turns += 1;
    if (spinning) setImmediate(spin);
  };
  setImmediate(spin);
  return {
    get turns() {
      return turns;
    },
    stop() {
      spinning = false;
    },
  };
}
