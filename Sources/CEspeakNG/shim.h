// eSpeak NG's library API (Debian: libespeak-ng-dev; voices in espeak-ng-data).
#include <espeak-ng/speak_lib.h>
