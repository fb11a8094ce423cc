//! One plan step: communicators, what the benchmark prepares, buffers, warm-up, the
//! measurement of every size, gather and the row.

use super::*;
use crate::table::TableKind;

impl Runner<'_> {
    /// Execute one step of the plan: set up, then for each mode a table of every measured
    /// size (measure, gather, reduce, emit), then let go of what the step prepared.
    pub(super) fn run_step(
        &mut self,
        bench: &dyn Benchmark,
        layout: &Layout,
        sizes: &Sizes,
        outcome: &mut Outcome,
    ) -> Result<()> {
        let info = bench.info();
        let role = layout.role(self.rank);
        let comm = comm::split(self.world, role);
        let bufs = self.buffers(info, layout, role, sizes.buf_bytes)?;
        let prep = self.prepare(bench, layout, role, comm.as_ref(), sizes.volume)?;
        let mut step = StepRun {
            bench,
            layout,
            sizes,
            role,
            comm,
            bufs,
            prep,
            counts: Vec::new(),
            took: 0.0,
            last_rep: None,
            replicated: false,
        };
        let cols = self.columns(info);
        let suffix = (info.banner)(layout.np);
        let process = (self.suite.hooks.process_block)(info, layout, &self.opts);
        for (m, &mode) in sizes.modes.iter().enumerate() {
            let name = info.name;
            self.emit(|s| {
                s.banner(&Banner {
                    name,
                    suffix: &suffix,
                    process: process.as_deref(),
                    layout,
                    mode,
                    cols,
                })
            });
            let mut out = TableOut::default();
            for k in (0..sizes.lens.len()).filter(|&k| sizes.measured[k]) {
                let (mine, n, note) = self.measure_size(&mut step, m, k);
                out.adaptive.extend(note);
                // Idle ranks wait here too (IMB's MPI_Barrier on MPI_COMM_WORLD).
                self.world.barrier();
                if self.opts.method.msg_pause {
                    // IMB 2021's pause: as long as this rank's timed loop took.
                    std::thread::sleep(std::time::Duration::from_secs_f64(step.took));
                }
                if let Some(all) = comm::gather(self.world, mine) {
                    self.report_size(info, layout, cols, &sizes.lens[k], n, &all, &mut out);
                }
            }
            let notes = out.notes(info, (layout, sizes), self.opts.multi, self.opts.mem);
            outcome.defect |= out.unsuccessful;
            let bad = out.unsuccessful;
            self.emit(|s| s.table_end(&notes, bad));
        }
        // Every rank lets go of what the step prepared before any rank prepares the next
        // step's, which may carry the same names.
        drop(step);
        self.world.barrier();
        Ok(())
    }

    /// The table kind of a benchmark in this run: its merged form under `-multi 0`.
    fn kind(&self, info: &Info) -> &'static TableKind {
        match (info.table.merged, self.opts.multi) {
            (Some(m), Some(Multi::Merged)) => m,
            _ => info.table,
        }
    }

    /// The columns of a benchmark's tables in this run.
    fn columns(&self, info: &Info) -> Columns {
        Columns {
            kind: self.kind(info).columns,
            group: self.opts.multi == Some(Multi::PerGroup),
            defects: self.opts.check && info.checked,
        }
    }

    /// `Benchmark::prepare` on the active ranks; an error on any rank ends the run on all.
    pub(super) fn prepare(
        &self,
        bench: &dyn Benchmark,
        layout: &Layout,
        role: Option<(usize, usize)>,
        comm: Option<&Comm>,
        volume: usize,
    ) -> Result<Option<Box<dyn std::any::Any>>> {
        let info = bench.info();
        let p = &self.opts.params;
        let mut out = None;
        let mut why = None;
        if let (Some(c), Some((g, pos))) = (comm, role) {
            let prep = Prep {
                comm: c,
                rank: pos,
                size: layout.np,
                world_rank: self.rank,
                group: layout.multi.then(|| layout.index_group[g]),
                groups: layout.groups.len(),
                volume,
                params: p,
                info: &self.opts.settings.info,
                family: &self.opts.family,
            };
            match bench.prepare(&prep) {
                Ok(v) => out = v,
                Err(e) => why = Some(e),
            }
        }
        match comm::first_error(self.world, why) {
            None => Ok(out),
            Some(e) => Err(Error::Run(format!("{}: {e}", info.name))),
        }
    }

    /// Send buffer filled with BUF_VALUE, receive buffer zeroed; every rank learns whether every
    /// active rank got its buffers, so a failure ends the run everywhere at once.
    pub(super) fn buffers(
        &self,
        info: &Info,
        layout: &Layout,
        role: Option<(usize, usize)>,
        (slen, rlen): (usize, usize),
    ) -> Result<Option<(Buffer, Buffer)>> {
        let mut bufs = None;
        let mut why = None;
        if let Some(short) = role.and_then(|_| self.host.memory_short((slen + rlen) as u64)) {
            // Mapping would succeed and filling would end in the OOM killer: refuse first.
            why = Some(short);
        } else if let Some((_, pos)) = role {
            match (Buffer::new(slen), Buffer::new(rlen)) {
                (Ok(mut s), Ok(r)) => {
                    (self.suite.hooks.fill)(&mut s, pos);
                    bufs = Some((s, r));
                }
                (Err(e), _) | (_, Err(e)) => why = Some(e.to_string()),
            }
        }
        if comm::agree(self.world, why.is_none()) {
            return Ok(bufs);
        }
        Err(Error::Run(format!(
            "{}: cannot allocate {slen} + {rlen} bytes of buffers per process on {} processes{}",
            info.name,
            layout.np,
            why.map(|e| format!(" ({e})")).unwrap_or_default()
        )))
    }

    /// Rank 0: turn the gathered results of one size into rows and check-mode notes.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn report_size(
        &mut self,
        info: &Info,
        layout: &Layout,
        cols: Columns,
        len: &Len,
        n: usize,
        all: &[RankResult<Wire>],
        out: &mut TableOut,
    ) {
        let sync = info.class == Class::Sync;
        let shown = (self.suite.hooks.row_bytes)(len.x, &self.opts);
        let rows: Vec<Row> = crate::table::row_sets(layout, self.opts.multi)
            .into_iter()
            .map(|(g, members)| {
                let st = stats::over(all, &members);
                let mut values = self.kind(info).values(&RowIn {
                    all,
                    members: &members,
                    stats: &st,
                    x: len.x,
                    scale_bw: info.scale_bw,
                    np: layout.np,
                    megabyte: self.opts.method.megabyte,
                });
                if cols.defects {
                    values.push(st.defect);
                }
                Row {
                    group: g,
                    bytes: (!sync).then_some(shown),
                    reps: n,
                    values,
                }
            })
            .collect();
        out.sizes.push(SizeResults {
            x: len.x,
            all: all.to_vec(),
        });
        for (w, r) in all.iter().enumerate() {
            if r.defect > TOL && layout.role(w).is_some() {
                out.unsuccessful = true;
                out.defects.push(Note::Defect {
                    bytes: len.x,
                    world_rank: w,
                    first_wrong_byte: r.pos.unwrap_or(0),
                });
            }
        }
        let attention = len.truncated_from.map(|from| Note::Truncated {
            from,
            to: lengths::maxmsg(&self.opts.params, info.unit),
        });
        self.emit(|s| {
            if let Some(a) = &attention {
                s.attention(a);
            }
            if cols.group {
                s.size_block();
            }
            for r in &rows {
                s.row(r);
            }
            s.measured((!sync).then_some(shown));
        });
    }
}
