//! The datatypes of a kernel's messages (IMB 2021's `-data_type`, `-red_data_type`,
//! `-contig_type`; `elems::Layout` says where their elements lie). A kernel builds its `Elems`
//! once per size, outside the timed region: derived types are committed there and freed, with
//! the user op of the derived reductions, when the kernel is dropped. The timed step only
//! passes the handles and the count (`Msg`).

use crate::elems::Layout;
use crate::options::{Base, Contig, Types};
use imb_core::mpirc::{check, count};
use mpi::ffi;
use std::os::raw::{c_int, c_void};

extern "C" {
    // csrc/datatypes.c, compiled against the library's mpi.h by build.rs.
    fn imb_mpi_byte() -> ffi::MPI_Datatype;
    fn imb_mpi_char() -> ffi::MPI_Datatype;
    fn imb_mpi_int() -> ffi::MPI_Datatype;
}

/// MPI_BYTE.
pub(super) fn mpi_byte() -> ffi::MPI_Datatype {
    // SAFETY: a C function that returns the constant MPI_BYTE of the library's mpi.h.
    unsafe { imb_mpi_byte() }
}

/// The predefined datatype of `b`.
fn handle(b: Base) -> ffi::MPI_Datatype {
    // SAFETY: C functions that return constants of the library's mpi.h, and reads of rsmpi's
    // extern statics, which hold MPI_FLOAT and MPI_DOUBLE.
    unsafe {
        match b {
            Base::Byte => imb_mpi_byte(),
            Base::Char => imb_mpi_char(),
            Base::Int => imb_mpi_int(),
            Base::Float => ffi::RSMPI_FLOAT,
            Base::Double => ffi::RSMPI_DOUBLE,
        }
    }
}

/// How the timed step describes one message to MPI: `n` elements of `ty`, combined with `op`
/// by a reduction. Every call that takes a `Msg` needs buffers of at least n·extent(ty) bytes
/// (a block of `Layout::block()`), which the kernels slice when they are built.
#[derive(Clone, Copy)]
pub struct Msg {
    pub(super) ty: ffi::MPI_Datatype,
    pub(super) n: c_int,
    pub(super) op: ffi::MPI_Op,
}

/// A kernel's messages of one size: the MPI description and the layout, owning the derived
/// datatype and the user op its build created.
pub struct Elems {
    pub msg: Msg,
    pub lay: Layout,
    derived: Option<ffi::MPI_Datatype>,
    user_op: Option<ffi::MPI_Op>,
}

impl Elems {
    /// The messages of X bytes of every benchmark but the reductions under `t`.
    pub fn data(t: &Types, x: usize) -> Elems {
        Elems::new(Layout::of(t.data, t.contig, x), t.contig, false)
    }

    /// The messages of X bytes of the reductions under `t`.
    pub fn red(t: &Types, x: usize) -> Elems {
        Elems::new(Layout::of(t.red, t.contig, x), t.contig, true)
    }

    /// IMB 2021's types for `lay`: the predefined type; resized to an extent of twice its
    /// size (lower bound at its size, as IMB 2021 sets it: only the extent moves elements);
    /// as one vector of the N elements; MPI_SUM, or where the type is derived a user op that
    /// adds every element, since MPI's predefined ops take only predefined types (Open MPI
    /// 4.1 refuses MPI_SUM on a vector of MPI_FLOAT with MPI_ERR_OP).
    fn new(lay: Layout, contig: Contig, reduction: bool) -> Elems {
        let base = handle(lay.base);
        let mut size: c_int = 0;
        // SAFETY: a predefined datatype and a local int to write.
        check("MPI_Type_size", unsafe {
            ffi::MPI_Type_size(base, &mut size)
        });
        assert_eq!(
            size as usize, lay.size,
            "{:?}: the library's size differs from the C type's",
            lay.base
        );
        let mut ty = base;
        let mut derived = None;
        if contig.resized() {
            let s = lay.size as ffi::MPI_Aint;
            let mut r = ty;
            // SAFETY: a predefined datatype, and a local handle MPI writes.
            check("MPI_Type_create_resized", unsafe {
                ffi::MPI_Type_create_resized(ty, s, 2 * s, &mut r)
            });
            ty = r;
            derived = Some(r);
        }
        if contig.vector() && lay.n > 0 {
            let mut v = ty;
            // SAFETY: a valid datatype, and a local handle MPI writes.
            check("MPI_Type_vector", unsafe {
                ffi::MPI_Type_vector(count(lay.n), 1, 1, ty, &mut v)
            });
            if let Some(mut r) = derived.take() {
                // The vector keeps what it needs of the resized type.
                // SAFETY: a derived datatype this function created and no longer uses.
                check("MPI_Type_free", unsafe { ffi::MPI_Type_free(&mut r) });
            }
            ty = v;
            derived = Some(v);
        }
        if let Some(t) = derived.as_mut() {
            // SAFETY: a derived datatype this function created.
            check("MPI_Type_commit", unsafe { ffi::MPI_Type_commit(t) });
            ty = *t;
        }
        let user_op = (reduction && contig != Contig::Base).then(|| user_sum(lay.base));
        Elems {
            msg: Msg {
                ty,
                n: count(lay.count()),
                // SAFETY: reading rsmpi's extern static that holds MPI_SUM.
                op: user_op.unwrap_or(unsafe { ffi::RSMPI_SUM }),
            },
            lay,
            derived,
            user_op,
        }
    }

    /// IMB 3.0's messages of X bytes (MPI_BYTE, or MPI_FLOAT with MPI_SUM), whatever the
    /// run's types (Jacobi2D's reference transfers; the unit tests' kernels). Creates nothing.
    pub fn imb(reduction: bool, x: usize) -> Elems {
        let lay = Layout::imb(reduction, x);
        Elems {
            msg: Msg {
                ty: handle(lay.base),
                n: count(lay.count()),
                // SAFETY: reading rsmpi's extern static that holds MPI_SUM.
                op: unsafe { ffi::RSMPI_SUM },
            },
            lay,
            derived: None,
            user_op: None,
        }
    }
}

impl Drop for Elems {
    fn drop(&mut self) {
        if let Some(mut t) = self.derived.take() {
            // SAFETY: the derived datatype `new` committed; the kernel that used it is being
            // dropped, so no call uses it any more.
            check("MPI_Type_free", unsafe { ffi::MPI_Type_free(&mut t) });
        }
        if let Some(mut op) = self.user_op.take() {
            // SAFETY: the user op `new` created, used by no call any more.
            check("MPI_Op_free", unsafe { ffi::MPI_Op_free(&mut op) });
        }
    }
}

/// A type the user op adds as its C type adds (integers wrap).
trait Add: Copy {
    fn add(self, o: Self) -> Self;
}

impl Add for i8 {
    fn add(self, o: Self) -> Self {
        self.wrapping_add(o)
    }
}

impl Add for c_int {
    fn add(self, o: Self) -> Self {
        self.wrapping_add(o)
    }
}

impl Add for u8 {
    fn add(self, o: Self) -> Self {
        self.wrapping_add(o)
    }
}

impl Add for f32 {
    fn add(self, o: Self) -> Self {
        self + o
    }
}

impl Add for f64 {
    fn add(self, o: Self) -> Self {
        self + o
    }
}

/// The user op's function, IMB 2021's sum over derived types: the datatype's extent over its
/// size is the step from one element to the next (2 when resized), and `len` datatypes hold
/// extent/size(T)·len places of T, every step-th an element.
///
/// # Safety
/// MPI calls it with `input` and `inout` holding `*len` items of `*dt`, a type built by
/// `Elems::new` from T's predefined type.
unsafe extern "C" fn contig_sum<T: Add>(
    input: *mut c_void,
    inout: *mut c_void,
    len: *mut c_int,
    dt: *mut ffi::MPI_Datatype,
) {
    let (mut lb, mut extent, mut size) = (0, 0, 0);
    check(
        "MPI_Type_get_extent",
        ffi::MPI_Type_get_extent(*dt, &mut lb, &mut extent),
    );
    check("MPI_Type_size", ffi::MPI_Type_size(*dt, &mut size));
    if size <= 0 || *len <= 0 {
        return;
    }
    let step = extent as usize / size as usize;
    let places = extent as usize / std::mem::size_of::<T>() * *len as usize;
    let (a, b) = (input as *const T, inout as *mut T);
    // Every place i < extent/size(T)·len lies within the *len items MPI handed over. The
    // accesses are unaligned: MPI may hand over temporary buffers of its own.
    for i in (0..places).step_by(step.max(1)) {
        b.add(i)
            .write_unaligned(b.add(i).read_unaligned().add(a.add(i).read_unaligned()));
    }
}

/// A commutative user op that sums elements of `base` in derived types.
fn user_sum(base: Base) -> ffi::MPI_Op {
    let f: unsafe extern "C" fn(*mut c_void, *mut c_void, *mut c_int, *mut ffi::MPI_Datatype) =
        match base {
            Base::Byte => contig_sum::<u8>,
            Base::Char => contig_sum::<i8>,
            Base::Int => contig_sum::<c_int>,
            Base::Float => contig_sum::<f32>,
            Base::Double => contig_sum::<f64>,
        };
    let mut op = std::mem::MaybeUninit::<ffi::MPI_Op>::uninit();
    // SAFETY: `f` matches MPI_User_function and lives as long as the program; MPI writes the
    // new handle into `op`.
    check("MPI_Op_create", unsafe {
        ffi::MPI_Op_create(Some(f), 1, op.as_mut_ptr())
    });
    // SAFETY: MPI_Op_create succeeded (`check` aborts otherwise), so it wrote the handle.
    unsafe { op.assume_init() }
}

impl Elems {
    /// The messages of `c`'s size under the run's types: the reductions' or the others'.
    pub fn of(c: &imb_core::kernel::Ctx, reduction: bool) -> Elems {
        let t = crate::options::types(c.params);
        if reduction {
            Elems::red(&t, c.x)
        } else {
            Elems::data(&t, c.x)
        }
    }
}
