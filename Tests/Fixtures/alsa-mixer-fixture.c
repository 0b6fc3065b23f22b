/*
 * An ALSA control device for the readiness tests (ReadinessTests): a sound card's mixer without
 * a sound card. It is an external control plugin (alsa-lib's snd_ctl_ext, <alsa/control_external.h>)
 * that the test builds with cc and names in its own ALSA configuration:
 *
 *   ctl_type.nc_fixture { lib "/path/libasound_module_ctl_nc_fixture.so" }
 *   ctl.DEVICE { type nc_fixture  file "/path/mixer" }
 *
 * It has two elements, "Master Playback Switch" (boolean) and "Master Playback Volume" (0-100),
 * both stereo, whose values are read from `file` at every read ("SWITCH VOLUME", e.g. "1 80"; a
 * missing file reads as on at 100) and written there by a write (amixer -D DEVICE set Master mute).
 * ALSA's simple mixer layer (snd_mixer_selem_*) sees them as any card's Master control.
 */
#define _GNU_SOURCE
/* A plugin's entry point carries alsa-lib's version symbol only when built as a plugin (PIC). */
#ifndef PIC
#define PIC
#endif
#include <alsa/asoundlib.h>
#include <alsa/control_external.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { SWITCH, VOLUME, COUNT };
static const char *const names[COUNT] = {"Master Playback Switch", "Master Playback Volume"};

typedef struct {
    snd_ctl_ext_t ext;
    char *file;
    int pipe[2]; /* the poll descriptor: never readable, this mixer sends no events */
} fixture_t;

static void load(const fixture_t *f, long values[COUNT]) {
    values[SWITCH] = 1;
    values[VOLUME] = 100;
    FILE *in = fopen(f->file, "r");
    if (!in) return;
    long on, volume;
    if (fscanf(in, "%ld %ld", &on, &volume) == 2) {
        values[SWITCH] = on ? 1 : 0;
        values[VOLUME] = volume < 0 ? 0 : volume > 100 ? 100 : volume;
    }
    fclose(in);
}

static int store(const fixture_t *f, const long values[COUNT]) {
    FILE *out = fopen(f->file, "w");
    if (!out) return -errno;
    fprintf(out, "%ld %ld\n", values[SWITCH], values[VOLUME]);
    return fclose(out) == 0 ? 0 : -EIO;
}

static void fixture_close(snd_ctl_ext_t *ext) {
    fixture_t *f = ext->private_data;
    close(f->pipe[0]);
    close(f->pipe[1]);
    free(f->file);
    free(f);
}

static int elem_count(snd_ctl_ext_t *ext) { (void)ext; return COUNT; }

static int elem_list(snd_ctl_ext_t *ext, unsigned int offset, snd_ctl_elem_id_t *id) {
    (void)ext;
    if (offset >= COUNT) return -EINVAL;
    snd_ctl_elem_id_set_interface(id, SND_CTL_ELEM_IFACE_MIXER);
    snd_ctl_elem_id_set_name(id, names[offset]);
    return 0;
}

static snd_ctl_ext_key_t find_elem(snd_ctl_ext_t *ext, const snd_ctl_elem_id_t *id) {
    (void)ext;
    const char *name = snd_ctl_elem_id_get_name(id);
    for (int key = 0; key < COUNT; key++)
        if (strcmp(name, names[key]) == 0) return key;
    return SND_CTL_EXT_KEY_NOT_FOUND;
}

static int get_attribute(snd_ctl_ext_t *ext, snd_ctl_ext_key_t key, int *type, unsigned int *acc, unsigned int *count) {
    (void)ext;
    *type = key == SWITCH ? SND_CTL_ELEM_TYPE_BOOLEAN : SND_CTL_ELEM_TYPE_INTEGER;
    *acc = SND_CTL_EXT_ACCESS_READWRITE;
    *count = 2;
    return 0;
}

static int get_integer_info(snd_ctl_ext_t *ext, snd_ctl_ext_key_t key, long *imin, long *imax, long *istep) {
    (void)ext;
    *imin = 0;
    *imax = key == SWITCH ? 1 : 100;
    *istep = 1;
    return 0;
}

static int read_integer(snd_ctl_ext_t *ext, snd_ctl_ext_key_t key, long *value) {
    long values[COUNT];
    load(ext->private_data, values);
    value[0] = value[1] = values[key];
    return 0;
}

static int write_integer(snd_ctl_ext_t *ext, snd_ctl_ext_key_t key, long *value) {
    long values[COUNT];
    load(ext->private_data, values);
    long wanted = value[0] > value[1] ? value[0] : value[1];
    if (values[key] == wanted) return 0;
    values[key] = wanted;
    int err = store(ext->private_data, values);
    return err < 0 ? err : 1;
}

static void subscribe_events(snd_ctl_ext_t *ext, int subscribe) { (void)ext; (void)subscribe; }

static int read_event(snd_ctl_ext_t *ext, snd_ctl_elem_id_t *id, unsigned int *event_mask) {
    (void)ext; (void)id; (void)event_mask;
    return -EAGAIN;
}

static const snd_ctl_ext_callback_t callbacks = {
    .close = fixture_close,
    .elem_count = elem_count,
    .elem_list = elem_list,
    .find_elem = find_elem,
    .get_attribute = get_attribute,
    .get_integer_info = get_integer_info,
    .read_integer = read_integer,
    .write_integer = write_integer,
    .subscribe_events = subscribe_events,
    .read_event = read_event,
};

SND_CTL_PLUGIN_DEFINE_FUNC(nc_fixture) {
    (void)root;
    const char *file = NULL;
    snd_config_iterator_t i, next;
    snd_config_for_each(i, next, conf) {
        snd_config_t *node = snd_config_iterator_entry(i);
        const char *id;
        if (snd_config_get_id(node, &id) < 0) continue;
        if (strcmp(id, "comment") == 0 || strcmp(id, "type") == 0 || strcmp(id, "hint") == 0) continue;
        if (strcmp(id, "file") == 0 && snd_config_get_string(node, &file) >= 0) continue;
        SNDERR("nc_fixture: unknown field %s", id);
        return -EINVAL;
    }
    if (!file) {
        SNDERR("nc_fixture: no file");
        return -EINVAL;
    }
    fixture_t *f = calloc(1, sizeof *f);
    if (!f) return -ENOMEM;
    if (pipe2(f->pipe, O_NONBLOCK | O_CLOEXEC) < 0) {
        free(f);
        return -errno;
    }
    f->file = strdup(file);
    f->ext.version = SND_CTL_EXT_VERSION;
    f->ext.card_idx = -1;
    strcpy(f->ext.id, "NCFixture");
    strcpy(f->ext.driver, "nc_fixture");
    strcpy(f->ext.name, "NoiseClock fixture");
    strcpy(f->ext.longname, "NoiseClock test mixer");
    strcpy(f->ext.mixername, "NoiseClock test mixer");
    f->ext.poll_fd = f->pipe[0];
    f->ext.callback = &callbacks;
    f->ext.private_data = f;
    int err = snd_ctl_ext_create(&f->ext, name, mode);
    if (err < 0) {
        close(f->pipe[0]);
        close(f->pipe[1]);
        free(f->file);
        free(f);
        return err;
    }
    *handlep = f->ext.handle;
    return 0;
}
SND_CTL_PLUGIN_SYMBOL(nc_fixture);
