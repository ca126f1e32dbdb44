// Loaded into the gateway by bench/profile.ts (`--import`): a CPU profile of a window of its life,
// not of its start. The first SIGUSR2 starts V8's sampling profiler, the second stops it and writes
// the profile to PROFILE_WINDOW_FILE (then `${file}.done`, so the bench knows it is complete).
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';

const file = process.env.PROFILE_WINDOW_FILE;
if (file) {
  const session = new Session();
  session.connect();
  let running = false;
  process.on('SIGUSR2', () => {
    void (async () => {
      if (!running) {
        running = true;
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: 100 });
        await session.post('Profiler.start');
        writeFileSync(`${file}.started`, '');
        return;
      }
      running = false;
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      writeFileSync(`${file}.done`, '');
    })();
  });
}
