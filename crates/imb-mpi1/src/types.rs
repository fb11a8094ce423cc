//! The datatypes of a kernel's messages (IMB 2021's `-data_type`, `-red_data_type`,
//! `-contig_type`; `elems::Layout` says where their elements lie), described to MPI by
//! imb-mpi's `datatype`. A kernel builds its `Elems` once per size, outside the timed region:
//! derived types are committed there and freed, with the user op of the derived reductions,
//! when the kernel is dropped. The timed step only passes the handles and the count (`Msg`).

use crate::elems::Layout;
use crate::options::{Base, Contig, Types};
use imb_mpi::datatype::{self, Derive, Msg};

/// A kernel's messages of one size: the MPI description and the layout, owning the derived
/// datatype and the user op its build created.
pub struct Elems {
    pub msg: Msg,
    pub lay: Layout,
    /// What `msg` names, freed when the kernel is dropped.
    _mpi: datatype::Types,
}

/// imb-mpi's name for `b`.
fn base(b: Base) -> datatype::Base {
    match b {
        Base::Byte => datatype::Base::Byte,
        Base::Char => datatype::Base::Char,
        Base::Int => datatype::Base::Int,
        Base::Float => datatype::Base::Float,
        Base::Double => datatype::Base::Double,
    }
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
    /// size; as one vector of the N elements; MPI_SUM, or where the type is derived a user op
    /// that adds every element (`datatype::Derive`).
    fn new(lay: Layout, contig: Contig, reduction: bool) -> Elems {
        let how = Derive {
            resized: contig.resized(),
            vector: if contig.vector() { lay.n } else { 0 },
            user_sum: reduction && contig != Contig::Base,
        };
        let mpi = datatype::Types::new(base(lay.base), lay.size, lay.count(), how);
        Elems {
            msg: mpi.msg,
            lay,
            _mpi: mpi,
        }
    }

    /// IMB 3.0's messages of X bytes (MPI_BYTE, or MPI_FLOAT with MPI_SUM), whatever the
    /// run's types (Jacobi2D's reference transfers; the unit tests' kernels). Creates nothing.
    pub fn imb(reduction: bool, x: usize) -> Elems {
        let lay = Layout::imb(reduction, x);
        let mpi = datatype::Types::predefined(base(lay.base), lay.count());
        Elems {
            msg: mpi.msg,
            lay,
            _mpi: mpi,
        }
    }

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
