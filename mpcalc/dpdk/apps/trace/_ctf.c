/*
 * mpcalc.dpdk.apps.trace._ctf: the loop of mpcalc/dpdk/apps/trace/ctf.py read_stream over one chunk of a DPDK CTF stream,
 * in C.
 *
 * Optional: setup.py builds it where a compiler is (Extension(optional=True)); without it ctf.py reads the same
 * events in Python (MPCALC_PURE=1 forces that path), and tests/test_trace.py holds the two to each other.
 *
 *   scan(data, at, limit, table, byte_order, event_type, stream, unread) -> (events, at, stop)
 *
 * From byte ``at`` of ``data``, while ``at <= limit`` (the caller keeps at least the largest event after
 * ``limit``): each event is its 8-byte header (48-bit timestamp, 16-bit id: v22.11:lib/eal/include/
 * rte_trace_point.h:335-340) and its fields, packed, the next event on the next 8-byte boundary.  ``table`` maps
 * an event id to (name, step, fields) where fields is None (an event whose fields are not read) or a tuple of
 * (name, kind, length): kind 1-4 unsigned of 1, 2, 4, 8 bytes, 5-8 signed of 1, 2, 4, 8 bytes, 9 text of
 * ``length`` bytes (up to its first NUL, UTF-8 with replacement), 10 float, 11 double.  Each event is the tuple
 * described below.  ``stop`` is 0 at ``limit``, or the unknown id met at ``at``
 * (1 + id).  Each event is an ``event_type`` (events.Event, a tuple subclass) of (name, fields or
 * ``unread``, ``stream``, timestamp), made as CPython makes a tuple subclass (its tp_alloc, then the items).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

static uint64_t load(const unsigned char *p, int size, int big)
{
    uint64_t v = 0;
    if (big) {
        for (int i = 0; i < size; i++)
            v = (v << 8) | p[i];
    } else {
        for (int i = size - 1; i >= 0; i--)
            v = (v << 8) | p[i];
    }
    return v;
}

static PyObject *field(const unsigned char *p, long kind, Py_ssize_t length, int big, Py_ssize_t *used)
{
    static const int sizes[] = {0, 1, 2, 4, 8, 1, 2, 4, 8};
    if (length > 0 && kind != 9) { /* an array of numbers: a tuple */
        PyObject *out = PyTuple_New(length);
        Py_ssize_t total = 0;
        if (!out)
            return NULL;
        for (Py_ssize_t i = 0; i < length; i++) {
            Py_ssize_t one = 0;
            PyObject *v = field(p + total, kind, 0, big, &one);
            if (!v) {
                Py_DECREF(out);
                return NULL;
            }
            PyTuple_SET_ITEM(out, i, v);
            total += one;
        }
        *used = total;
        return out;
    }
    if (kind >= 1 && kind <= 8) {
        int size = sizes[kind];
        uint64_t v = load(p, size, big);
        *used = size;
        if (kind <= 4)
            return PyLong_FromUnsignedLongLong(v);
        int shift = 64 - 8 * size;
        return PyLong_FromLongLong((long long)(v << shift) >> shift);
    }
    if (kind == 9) {
        const unsigned char *nul = memchr(p, 0, (size_t)length);
        *used = length;
        return PyUnicode_DecodeUTF8((const char *)p, nul ? (Py_ssize_t)(nul - p) : length, "replace");
    }
    if (kind == 10 || kind == 11) {
        int size = kind == 10 ? 4 : 8;
        uint64_t v = load(p, size, big);
        *used = size;
        if (size == 4) {
            uint32_t w = (uint32_t)v;
            float f;
            memcpy(&f, &w, 4);
            return PyFloat_FromDouble(f);
        }
        double d;
        memcpy(&d, &v, 8);
        return PyFloat_FromDouble(d);
    }
    PyErr_Format(PyExc_ValueError, "field kind %ld", kind);
    return NULL;
}

static PyObject *scan(PyObject *self, PyObject *args)
{
    Py_buffer buf;
    Py_ssize_t at, limit;
    PyObject *table, *stream, *unread;
    PyTypeObject *event_type;
    int big;
    if (!PyArg_ParseTuple(args, "y*nnO!pO!OO", &buf, &at, &limit, &PyDict_Type, &table, &big, &PyType_Type,
                          &event_type, &stream, &unread))
        return NULL;
    if (!PyType_IsSubtype(event_type, &PyTuple_Type)) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_TypeError, "event_type must be a tuple subclass");
        return NULL;
    }
    const unsigned char *data = buf.buf;
    PyObject *events = PyList_New(0);
    long stop = 0;
    if (!events)
        goto fail;
    while (at <= limit && at + 8 <= buf.len) {
        uint64_t word = load(data + at, 8, big);
        PyObject *key = PyLong_FromUnsignedLong((unsigned long)(word >> 48));
        if (!key)
            goto fail;
        PyObject *entry = PyDict_GetItemWithError(table, key); /* borrowed */
        Py_DECREF(key);
        if (!entry) {
            if (PyErr_Occurred())
                goto fail;
            stop = 1 + (long)(word >> 48);
            break;
        }
        PyObject *name = PyTuple_GET_ITEM(entry, 0);
        Py_ssize_t step = PyLong_AsSsize_t(PyTuple_GET_ITEM(entry, 1));
        PyObject *spec = PyTuple_GET_ITEM(entry, 2);
        PyObject *fields = unread;
        Py_INCREF(unread);
        if (spec != Py_None) {
            Py_DECREF(unread);
            fields = PyDict_New();
            if (!fields)
                goto fail;
            const unsigned char *p = data + at + 8;
            Py_ssize_t n = PyTuple_GET_SIZE(spec);
            for (Py_ssize_t i = 0; i < n; i++) {
                PyObject *f = PyTuple_GET_ITEM(spec, i);
                Py_ssize_t used = 0;
                PyObject *v = field(p, PyLong_AsLong(PyTuple_GET_ITEM(f, 1)),
                                    PyLong_AsSsize_t(PyTuple_GET_ITEM(f, 2)), big, &used);
                if (!v || PyDict_SetItem(fields, PyTuple_GET_ITEM(f, 0), v) < 0) {
                    Py_XDECREF(v);
                    Py_DECREF(fields);
                    goto fail;
                }
                Py_DECREF(v);
                p += used;
            }
        }
        PyObject *stamp = PyLong_FromUnsignedLongLong((unsigned long long)(word & 0xFFFFFFFFFFFFULL));
        PyObject *event = stamp ? event_type->tp_alloc(event_type, 4) : NULL;
        if (!event) {
            Py_XDECREF(stamp);
            Py_DECREF(fields);
            goto fail;
        }
        Py_INCREF(name);
        Py_INCREF(stream);
        PyTuple_SET_ITEM(event, 0, name);
        PyTuple_SET_ITEM(event, 1, fields);
        PyTuple_SET_ITEM(event, 2, stream);
        PyTuple_SET_ITEM(event, 3, stamp);
        if (PyList_Append(events, event) < 0) {
            Py_DECREF(event);
            goto fail;
        }
        Py_DECREF(event);
        at += step;
    }
    PyBuffer_Release(&buf);
    return Py_BuildValue("(Nnl)", events, at, stop);
fail:
    Py_XDECREF(events);
    PyBuffer_Release(&buf);
    return NULL;
}

static PyMethodDef methods[] = {
    {"scan", scan, METH_VARARGS, "The events of a chunk of a DPDK CTF stream (see the module's comment)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_ctf", "DPDK's CTF events read in C.", -1, methods};

/* ctf.py uses a build of this file only if its VERSION is ctf.ACCEL_VERSION: bump both on every change */
#define VERSION 2

PyMODINIT_FUNC PyInit__ctf(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "VERSION", VERSION)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
