// The job worker. Conversational replies and workflow runs are executed here (see their issues);
// for now it only owns the queue's lifecycle.
export async function startWorker(): Promise<() => Promise<void>> {
  return async () => {};
}
