// Preloaded into a profiled server: SIGUSR2 ends it with a normal exit, so that --cpu-prof writes its
// profile (the emulator ends at once on SIGTERM, by the signal's default action, which writes nothing).
process.on('SIGUSR2', () => process.exit(0));
