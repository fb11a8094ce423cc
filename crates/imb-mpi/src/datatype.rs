//! The datatypes of a kernel's messages (IMB 2021's `-data_type`, `-red_data_type`,
//! `-contig_type`): a kernel builds its `Types` once per size, outside the timed region;
//! derived types are committed there and freed, with the user op of the derived reductions,
//! when the `Types` is dropped. The timed step only passes the handles and the count (`Msg`).

use crate::handles;
use crate::rc::{check, count};
use mpi::ffi;
use std::os::raw::{c_int, c_void};

/// A predefined datatype a message is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base {
    Byte,
    Char,
    Int,
    Float,
    Double,
}

/// The predefined datatype of `b`.
fn handle(b: Base) -> ffi::MPI_Datatype {
    match b {
        Base::Byte => handles::byte(),
        Base::Char => handles::char(),
        Base::Int => handles::int(),
        // SAFETY: reading rsmpi's extern static, which holds MPI_FLOAT.
        Base::Float => unsafe { ffi::RSMPI_FLOAT },
        // SAFETY: reading rsmpi's extern static, which holds MPI_DOUBLE.
        Base::Double => unsafe { ffi::RSMPI_DOUBLE },
    }
}

/// How the timed step describes one message to MPI: `n` elements of `ty`, combined with `op`
/// by a reduction. Every call that takes a `Msg` needs buffers of at least n·extent(ty) bytes,
/// which the kernels slice when they are built.
#[derive(Clone, Copy)]
pub struct Msg {
    pub(crate) ty: ffi::MPI_Datatype,
    pub(crate) n: c_int,
    pub(crate) op: ffi::MPI_Op,
}

/// How the elements of a message are described beyond their predefined type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Derive {
    /// Each element resized to an extent of twice its size (lower bound at its size, as IMB
    /// 2021 sets it: only the extent moves elements).
    pub resized: bool,
    /// The message as one vector of this many elements (none when 0).
    pub vector: usize,
    /// Reductions combine with a user op that adds every element, not MPI_SUM: MPI's
    /// predefined ops take only predefined types (Open MPI 4.1 refuses MPI_SUM on a vector of
    /// MPI_FLOAT with MPI_ERR_OP).
    pub user_sum: bool,
}

/// A kernel's messages of one size as MPI sees them, owning the derived datatype and the user
/// op its build created.
pub struct Types {
    pub msg: Msg,
    derived: Option<ffi::MPI_Datatype>,
    user_op: Option<ffi::MPI_Op>,
}

impl Types {
    /// `count` units of `base` (of `size` bytes, the C type's size, which the library must
    /// agree with) as `how` describes them.
    pub fn new(base: Base, size: usize, count_of: usize, how: Derive) -> Types {
        let predefined = handle(base);
        let mut lib_size: c_int = 0;
        // SAFETY: a predefined datatype and a local int to write.
        check("MPI_Type_size", unsafe {
            ffi::MPI_Type_size(predefined, &mut lib_size)
        });
        assert_eq!(
            lib_size as usize, size,
            "{base:?}: the library's size differs from the C type's"
        );
        let mut ty = predefined;
        let mut derived = None;
        if how.resized {
            let s = size as ffi::MPI_Aint;
            let mut r = ty;
            // SAFETY: a predefined datatype, and a local handle MPI writes.
            check("MPI_Type_create_resized", unsafe {
                ffi::MPI_Type_create_resized(ty, s, 2 * s, &mut r)
            });
            ty = r;
            derived = Some(r);
        }
        if how.vector > 0 {
            let mut v = ty;
            // SAFETY: a valid datatype, and a local handle MPI writes.
            check("MPI_Type_vector", unsafe {
                ffi::MPI_Type_vector(count(how.vector), 1, 1, ty, &mut v)
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
        let user_op = how.user_sum.then(|| user_sum(base));
        Types {
            msg: Msg {
                ty,
                n: count(count_of),
                op: user_op.unwrap_or_else(sum),
            },
            derived,
            user_op,
        }
    }

    /// `count_of` elements of `base` with MPI_SUM. Creates nothing.
    pub fn predefined(base: Base, count_of: usize) -> Types {
        Types {
            msg: Msg {
                ty: handle(base),
                n: count(count_of),
                op: sum(),
            },
            derived: None,
            user_op: None,
        }
    }
}

/// MPI_SUM.
fn sum() -> ffi::MPI_Op {
    // SAFETY: reading rsmpi's extern static that holds MPI_SUM.
    unsafe { ffi::RSMPI_SUM }
}

impl Drop for Types {
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
/// `Types::new` from T's predefined type.
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
