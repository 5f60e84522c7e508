/* Request completion: MPI_Wait/Waitall/Waitany/Waitsome and
 * MPI_Test/Testall/Testany/Testsome write the completion records
 * (mpi/req.h) of the requests they completed, in array order (Waitsome and
 * Testsome: in the order MPI lists them). The handles are copied first:
 * MPI sets completed ones to MPI_REQUEST_NULL. Statuses the program
 * ignores are read from our own. */
#include "mpi/req.h"
#include "mpi/wrap.h"

#include <stdlib.h>

#define ON_STACK 16

int MPI_Wait(MPI_Request *q, MPI_Status *s) {
  const void *cp = __builtin_return_address(0);
  ot_mpi_hook(OT_MPI_Wait, 0, cp, 0);
  MPI_Request old = *q;
  MPI_Status own;
  MPI_Status *st = s == MPI_STATUS_IGNORE ? &own : s;
  int rc = PMPI_Wait(q, st);
  if (rc == MPI_SUCCESS && ot_mpi_on())
    ot_mpi_req_done(1, &old, q, st, NULL);
  ot_mpi_hook(OT_MPI_Wait, 1, cp, 0);
  return rc;
}

int MPI_Test(MPI_Request *q, int *f, MPI_Status *s) {
  const void *cp = __builtin_return_address(0);
  ot_mpi_hook(OT_MPI_Test, 0, cp, 0);
  MPI_Request old = *q;
  MPI_Status own;
  MPI_Status *st = s == MPI_STATUS_IGNORE ? &own : s;
  int rc = PMPI_Test(q, f, st);
  if (rc == MPI_SUCCESS && *f && ot_mpi_on())
    ot_mpi_req_done(1, &old, q, st, NULL);
  ot_mpi_hook(OT_MPI_Test, 1, cp, 0);
  return rc;
}

/* Copies of n handles and a status array for the call (the program's or
 * ours); 0 when memory ran out (the call is then made untracked). */
typedef struct many {
  MPI_Request req[ON_STACK], *old;
  MPI_Status sts[ON_STACK], *st, *own;
} many;

static int many_begin(many *m, int n, const MPI_Request q[], MPI_Status s[]) {
  m->old = n <= ON_STACK ? m->req : malloc((size_t)n * sizeof *m->old);
  m->own = s == MPI_STATUSES_IGNORE && n > ON_STACK ? malloc((size_t)n * sizeof *m->own) : NULL;
  m->st = s != MPI_STATUSES_IGNORE ? s : n <= ON_STACK ? m->sts : m->own;
  if (!m->old || !m->st) {
    if (m->old != m->req)
      free(m->old);
    free(m->own);
    return 0;
  }
  for (int i = 0; i < n; i++)
    m->old[i] = q[i];
  return 1;
}

static void many_end(many *m) {
  if (m->old != m->req)
    free(m->old);
  free(m->own);
}

int MPI_Waitall(int n, MPI_Request q[], MPI_Status s[]) {
  const void *cp = __builtin_return_address(0);
  ot_mpi_hook(OT_MPI_Waitall, 0, cp, 0);
  many m;
  int rc;
  if (n > 0 && ot_mpi_on() && many_begin(&m, n, q, s)) {
    rc = PMPI_Waitall(n, q, m.st);
    if (rc == MPI_SUCCESS)
      ot_mpi_req_done(n, m.old, q, m.st, NULL);
    many_end(&m);
  } else {
    rc = PMPI_Waitall(n, q, s);
  }
  ot_mpi_hook(OT_MPI_Waitall, 1, cp, 0);
  return rc;
}

int MPI_Testall(int n, MPI_Request q[], int *f, MPI_Status s[]) {
  const void *cp = __builtin_return_address(0);
  ot_mpi_hook(OT_MPI_Testall, 0, cp, 0);
  many m;
  int rc;
  if (n > 0 && ot_mpi_on() && many_begin(&m, n, q, s)) {
    rc = PMPI_Testall(n, q, f, m.st);
    if (rc == MPI_SUCCESS && *f)
      ot_mpi_req_done(n, m.old, q, m.st, NULL);
    many_end(&m);
  } else {
    rc = PMPI_Testall(n, q, f, s);
  }
  ot_mpi_hook(OT_MPI_Testall, 1, cp, 0);
  return rc;
}

/* Waitany and Testany (flag NULL: Waitany). */
static int any(unsigned call, int n, MPI_Request q[], int *idx, int *f, MPI_Status *s,
               const void *cp) {
  ot_mpi_hook(call, 0, cp, 0);
  many m;
  int rc, done = 1;
  MPI_Status own;
  MPI_Status *st = s == MPI_STATUS_IGNORE ? &own : s;
  if (n > 0 && ot_mpi_on() && many_begin(&m, n, q, st)) {
    rc = f ? PMPI_Testany(n, q, idx, f, st) : PMPI_Waitany(n, q, idx, st);
    done = !f || *f;
    if (rc == MPI_SUCCESS && done && *idx != MPI_UNDEFINED && *idx >= 0 && *idx < n)
      ot_mpi_req_done(1, m.old, q, st, idx);
    many_end(&m);
  } else {
    rc = f ? PMPI_Testany(n, q, idx, f, s) : PMPI_Waitany(n, q, idx, s);
  }
  ot_mpi_hook(call, 1, cp, 0);
  return rc;
}

int MPI_Waitany(int n, MPI_Request q[], int *idx, MPI_Status *s) {
  return any(OT_MPI_Waitany, n, q, idx, NULL, s, __builtin_return_address(0));
}

int MPI_Testany(int n, MPI_Request q[], int *idx, int *f, MPI_Status *s) {
  return any(OT_MPI_Testany, n, q, idx, f, s, __builtin_return_address(0));
}

/* Waitsome and Testsome: the *out requests of indices idx completed. */
static int some(unsigned call, int n, MPI_Request q[], int *out, int idx[], MPI_Status s[],
                const void *cp) {
  ot_mpi_hook(call, 0, cp, 0);
  many m;
  int rc;
  if (n > 0 && ot_mpi_on() && many_begin(&m, n, q, s)) {
    rc = call == OT_MPI_Waitsome ? PMPI_Waitsome(n, q, out, idx, m.st)
                                 : PMPI_Testsome(n, q, out, idx, m.st);
    if (rc == MPI_SUCCESS && *out != MPI_UNDEFINED && *out > 0 && *out <= n)
      ot_mpi_req_done(*out, m.old, q, m.st, idx);
    many_end(&m);
  } else {
    rc = call == OT_MPI_Waitsome ? PMPI_Waitsome(n, q, out, idx, s)
                                 : PMPI_Testsome(n, q, out, idx, s);
  }
  ot_mpi_hook(call, 1, cp, 0);
  return rc;
}

int MPI_Waitsome(int n, MPI_Request q[], int *out, int idx[], MPI_Status s[]) {
  return some(OT_MPI_Waitsome, n, q, out, idx, s, __builtin_return_address(0));
}

int MPI_Testsome(int n, MPI_Request q[], int *out, int idx[], MPI_Status s[]) {
  return some(OT_MPI_Testsome, n, q, out, idx, s, __builtin_return_address(0));
}
