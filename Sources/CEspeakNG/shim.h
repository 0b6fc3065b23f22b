// eSpeak NG's library API (Debian: libespeak-ng-dev; voices in espeak-ng-data): its types and
// constants only. The node does not link the library (it brings PulseAudio and X11 libraries
// with it): SpeechLibrary opens it with dlopen on the first utterance.
#include <stdio.h>
#include <espeak-ng/speak_lib.h>
#include <espeak-ng/espeak_ng.h>
#include <dlfcn.h>
