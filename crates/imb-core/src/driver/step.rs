//! One plan step: communicators, files, buffers, warm-up, the measurement of every size,
//! gather and the row.

use super::*;

impl Runner<'_> {
    pub(super) fn run_step(
        &mut self,
        bench: &dyn Benchmark,
        layout: &Layout,
        outcome: &mut Outcome,
    ) -> Result<()> {
        let info = bench.info();
        let lens = self.lengths(bench);
        if lens.is_empty() {
            let note = Note::NoLengths {
                benchmark: info.name.to_string(),
            };
            self.emit(|s| s.note(&note));
            return Ok(());
        }
        let role = layout.role(self.rank);
        let comm = comm::split(self.world, role);
        let step = StepPlan::new(&self.opts, info, layout, lens);
        let mut bufs = self.buffers(info, layout, role, step.buf_x)?;
        let prep = self.prepare(bench, layout, role, comm.as_ref(), &step)?;
        let table = match (info.table, self.opts.multi) {
            (Table::Single, Some(Multi::Merged)) => Table::Parallel,
            (t, _) => t,
        };
        let cols = Columns {
            table,
            group: self.opts.multi == Some(Multi::PerGroup),
            defects: self.opts.check && info.checked,
        };
        let agg = self.opts.aggregate_mode;
        for &mode in info.modes.iter().filter(|&&m| agg.runs(m)) {
            self.emit(|s| {
                s.banner(&Banner {
                    name: info.name,
                    layout,
                    mode,
                    cols,
                })
            });
            let mut table_out = TableOut::default();
            for (k, len) in step.lens.iter().enumerate() {
                if !step.measured[k] {
                    table_out.skipped.push(len.x);
                    continue;
                }
                let mut n = lengths::n_sample(
                    (info.sample_bytes)(len.x),
                    step.cap(mode),
                    self.opts.params.overall_vol,
                );
                let mut active = match (&comm, bufs.as_mut(), role) {
                    (Some(c), Some((s, r)), Some((_, pos))) => Some(Active {
                        bench,
                        comm: c,
                        pos,
                        np: layout.np,
                        send: s,
                        recv: r,
                        params: &self.opts.params,
                        info_hints: &self.opts.settings.info,
                        prep: prep.as_deref(),
                        cpu: self.cpu.as_ref(),
                    }),
                    _ => None,
                };
                // IMB-IO has no warm-up (doc/METHODOLOGY.md, "Warm-up").
                let warm = self.suite.settings != Kind::Io && self.opts.params.n_warmup > 0;
                if k == step.first && warm {
                    if let Some(a) = active.as_mut() {
                        a.time(
                            step.warm_x,
                            step.warm_mode,
                            self.opts.params.n_warmup,
                            false,
                        );
                    }
                }
                if let Some(limit) = self.opts.time {
                    // The better of two single repetitions, so one cold outlier does not
                    // decide the count; the slowest rank decides for all.
                    let probe = active.as_mut().map_or(0.0, |a| {
                        let t1 = a.time(step.x(len), mode, 1, false).secs;
                        let t2 = a.time(step.x(len), mode, 1, false).secs;
                        t1.min(t2)
                    });
                    let worst = comm::max_all(self.world, probe);
                    n = n.min(((limit / worst.max(1e-9)) as usize).max(1));
                }
                let x = step.x(len);
                let check = self.opts.check;
                let mine = match self.opts.adaptive {
                    None => active.as_mut().map_or(RankResult::default(), |a| {
                        rank_result(&[a.time(x, mode, n, check)], info.scale_time)
                    }),
                    Some(ad) => {
                        let (r, note, reps) = adaptive_size(
                            self.world,
                            &mut active,
                            ad,
                            (x, mode, n, check),
                            info.scale_time,
                        );
                        let bytes = (info.class != Class::Sync).then_some(len.x);
                        table_out.adaptive.push(note(bytes));
                        n = reps;
                        r
                    }
                };
                // Idle ranks wait here too (IMB's MPI_Barrier on MPI_COMM_WORLD).
                self.world.barrier();
                if let Some(all) = comm::gather(self.world, mine) {
                    self.report_size(info, layout, cols, len, n, &all, &mut table_out);
                }
            }
            let notes = table_out.notes(info, self.opts.mem, layout.np);
            outcome.defect |= table_out.unsuccessful;
            let bad = table_out.unsuccessful;
            self.emit(|s| s.table_end(&notes, bad));
        }
        // Every rank lets go of the step's files before any rank prepares the next step's,
        // which may carry the same names.
        drop(prep);
        self.world.barrier();
        Ok(())
    }

    /// `Benchmark::prepare` on the active ranks; an error on any rank ends the run on all.
    pub(super) fn prepare(
        &self,
        bench: &dyn Benchmark,
        layout: &Layout,
        role: Option<(usize, usize)>,
        comm: Option<&Comm>,
        step: &StepPlan,
    ) -> Result<Option<Box<dyn std::any::Any>>> {
        let info = bench.info();
        let p = &self.opts.params;
        let agg = self.opts.aggregate_mode;
        let volume = step
            .lens
            .iter()
            .zip(&step.measured)
            .filter(|(_, &m)| m)
            .flat_map(|(l, _)| {
                info.modes
                    .iter()
                    .filter(move |&&m| agg.runs(m))
                    .map(move |&m| {
                        lengths::n_sample((info.sample_bytes)(l.x), step.cap(m), p.overall_vol)
                            * l.x
                    })
            })
            .max()
            .unwrap_or(0);
        let base =
            std::path::Path::new(&self.opts.dir).join(p.filename.as_deref().unwrap_or("IMB_out"));
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
                base: &base,
                overwrite: self.opts.overwrite,
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
        buf_x: usize,
    ) -> Result<Option<(Buffer, Buffer)>> {
        let (slen, rlen) = info
            .bufs
            .lens(buf_x, layout.np, self.opts.params.overall_vol);
        let mut bufs = None;
        let mut why = None;
        if let Some(short) = role.and_then(|_| self.host.memory_short((slen + rlen) as u64)) {
            // Mapping would succeed and filling would end in the OOM killer: refuse first.
            why = Some(short);
        } else if let Some((_, pos)) = role {
            match (Buffer::new(slen), Buffer::new(rlen)) {
                (Ok(mut s), Ok(r)) => {
                    if self.suite.settings == Kind::Io {
                        s.fill_io(pos);
                    } else {
                        s.fill(pos);
                    }
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
        all: &[RankResult],
        out: &mut TableOut,
    ) {
        let sync = info.class == Class::Sync;
        let members = |g: Option<usize>| -> Vec<usize> {
            match g {
                Some(g) => layout.groups[g].clone(),
                None => layout.groups.iter().flatten().copied().collect(),
            }
        };
        let rows: Vec<Row> = stats::rows(all, &layout.groups, self.opts.multi)
            .into_iter()
            .map(|(g, st)| {
                let mbps = stats::mbytes_per_sec(info.scale_bw, len.x, st.t_max);
                let mut values = match cols.table {
                    Table::Single => vec![st.t_max.0, mbps],
                    Table::Parallel => vec![st.t_min.0, st.t_max.0, st.t_avg.0, mbps],
                    Table::NonBlocking => vec![
                        st.t_max.0,
                        st.pure_max.0,
                        st.cpu_max.0,
                        stats::overlap_pct(st.t_max, st.pure_max, st.cpu_max),
                    ],
                    Table::WhiteBox => crate::whitebox::row_values(all, &members(g)),
                    _ => vec![st.t_min.0, st.t_max.0, st.t_avg.0],
                };
                if cols.defects {
                    values.push(st.defect);
                }
                Row {
                    group: g,
                    bytes: (!sync).then_some(len.x),
                    reps: n,
                    values,
                }
            })
            .collect();
        if let Some(who) = info.latency {
            out.latency.extend(report::latency_notes(
                who,
                len.x,
                all,
                layout,
                self.opts.multi,
            ));
        }
        if cols.table == Table::WhiteBox {
            let members: Vec<usize> = layout.groups.iter().flatten().copied().collect();
            out.sections
                .push(crate::whitebox::sections_row(len.x, all, &members));
        }
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
        });
    }
}
