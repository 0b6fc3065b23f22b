#ifndef NOISECLOCK_ALSA_SILENCE_H
#define NOISECLOCK_ALSA_SILENCE_H

/// Replaces ALSA's default error handler (which prints to stderr) with one that drops the
/// message: ALSA's handler is variadic, which Swift cannot implement. Errors still reach us
/// as return codes, which the engine logs through swift-log.
void noiseclock_alsa_silence_errors(void);

#endif
