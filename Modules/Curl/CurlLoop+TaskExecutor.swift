/// The loop thread as a Swift `TaskExecutor` (SE-0417), so that a consumer that prefers it is
/// resumed where its events are produced.
///
/// Without a preference, each event a parked consumer waits for costs a thread hop: the loop yields
/// it, a cooperative-pool thread is woken (a futex wake and a context switch), the consumer runs
/// there and posts its next command back, which may wake the loop in turn. A task that prefers the
/// loop runs between the loop's passes on the loop thread itself: its events arrive with no wake-up,
/// and a transfer it starts is added in the same pass, before libcurl runs.
///
/// Jobs run between libcurl calls, never inside a callback, so a job may post commands (start,
/// cancel, demand) freely. Whatever a job does, no transfer moves meanwhile: only event-draining work
/// belongs here, and the transport's documentation says so where the executor is offered.
extension CurlLoop: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if !postJob(job) { Self.runElsewhere(job) }
    }

    /// Runs jobs taken from the inbox on this (the loop) thread.
    func runJobs(_ jobs: [UnownedJob]) {
        guard !jobs.isEmpty else { return }
        let executor = asUnownedTaskExecutor()
        for job in jobs { job.runSynchronously(on: executor) }
    }

    /// A job that reached a stopped loop goes to the global concurrent executor: the task that
    /// prefers a shut-down transport still runs to its end (its transfers fail with `shutDown`).
    static func runElsewhere(_ job: UnownedJob) {
        globalConcurrentExecutor.enqueue(ExecutorJob(job))
    }
}
