// The PTX ISA version whose semantics this library implements.
namespace ptxcheck::sem {
extern const char* const kPtxIsaVersion;
const char* const kPtxIsaVersion = "9.2";
}  // namespace ptxcheck::sem
