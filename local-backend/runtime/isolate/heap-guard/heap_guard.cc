// The heap guard (decision 090): ends an isolate that uses more than its heap without ending the
// process. Node's own limit for a worker (`resourceLimits`) aborts the whole process when one
// allocation near the limit is larger than the 16 MB Node adds (nodejs/node#47224), or larger than
// what is left below it: one `push` that grows a big array, or one long string, would stop the server.
//
// So the isolate runs with a high hard limit (2 GB, room for V8's largest single allocation), and this
// guard enforces the real one on what is alive outside the young generation (what V8's own limit
// counts): past it after a full collection, it marks the isolate out of memory in shared memory,
// terminates its JavaScript and stops its thread; past it after a young collection (maybe garbage), it
// asks for a full collection at the isolate's next safe point, which decides. Should the heap reach the
// hard limit first (a built-in that allocates a lot in one call), the guard does the same and lets the
// heap grow by up to 1 GB more so that call can return.
#include <node.h>
#include <v8.h>
#ifndef _WIN32
#include <dlfcn.h>
#endif

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace {

struct Guard {
  v8::Isolate* isolate;
  node::Environment* env;
  // The shared flags the backend thread reads; `slot` is set to 1 when the isolate ran out of memory.
  std::shared_ptr<v8::BackingStore> flags;
  size_t slot;
  size_t limit_bytes;
  bool tripped;
  // A full collection is asked for and has not run yet.
  bool collecting;
};

void Trip(Guard* guard) {
  if (guard->tripped) return;
  guard->tripped = true;
  static_cast<std::atomic<int32_t>*>(guard->flags->Data())[guard->slot].store(1);
  guard->isolate->TerminateExecution();
  node::Stop(guard->env);
}

// The heap outside the young generation (what V8's own old-generation limit counts): after a full
// collection, what is still alive there.
size_t OldGenerationUsed(v8::Isolate* isolate) {
  size_t used = 0;
  v8::HeapSpaceStatistics space;
  for (size_t i = 0; i < isolate->NumberOfHeapSpaces(); i++) {
    isolate->GetHeapSpaceStatistics(&space, i);
    std::string name = space.space_name();
    if (name != "new_space" && name != "new_large_object_space") used += space.space_used_size();
  }
  return used;
}

// Runs at the isolate's next safe point: a full collection, whose end (AfterGc) judges what is alive.
void CollectFully(v8::Isolate* isolate, void* data) {
  static_cast<Guard*>(data)->collecting = false;
  isolate->LowMemoryNotification();
}

void AfterGc(v8::Isolate* isolate, v8::GCType type, v8::GCCallbackFlags, void* data) {
  auto* guard = static_cast<Guard*>(data);
  if (guard->tripped || OldGenerationUsed(isolate) <= guard->limit_bytes) return;
  // Past the limit after a full collection: that much is alive.
  if (type == v8::kGCTypeMarkSweepCompact) return Trip(guard);
  // Past it after a young one: maybe garbage (a large result's copies). A full collection tells.
  if (!guard->collecting) {
    guard->collecting = true;
    isolate->RequestInterrupt(CollectFully, guard);
  }
}

size_t NearHardLimit(void* data, size_t current_limit, size_t initial_limit) {
  Trip(static_cast<Guard*>(data));
  size_t most = initial_limit + (size_t{1} << 30);
  return current_limit < most ? most : current_limit;
}

// Runs when the worker's environment is torn down, before Node unloads this library: V8 must not call
// into it afterwards (its last collection would jump to unmapped code).
void Remove(void* data) {
  auto* guard = static_cast<Guard*>(data);
  guard->isolate->RemoveGCEpilogueCallback(AfterGc, guard);
  guard->isolate->RemoveNearHeapLimitCallback(NearHardLimit, 0);
  // A full collection asked for may still run (an interrupt cannot be withdrawn): it keeps its guard.
  if (!guard->collecting) delete guard;
}

// Keeps this library loaded for the life of the process, so that nothing V8 still holds of it (an
// interrupt asked for, a last collection) calls into unloaded code when a worker's environment goes.
void StayLoaded() {
#ifndef _WIN32
  Dl_info self;
  if (dladdr(reinterpret_cast<void*>(&StayLoaded), &self) != 0 && self.dli_fname != nullptr)
    dlopen(self.dli_fname, RTLD_NOW | RTLD_NODELETE);
#endif
}

// install(flags: SharedArrayBuffer, slot: number, limitBytes: number): guards the calling thread's isolate.
void Install(const v8::FunctionCallbackInfo<v8::Value>& info) {
  v8::Isolate* isolate = info.GetIsolate();
  if (info.Length() != 3 || !info[0]->IsSharedArrayBuffer() || !info[1]->IsUint32() || !info[2]->IsNumber()) {
    isolate->ThrowException(v8::Exception::TypeError(
        v8::String::NewFromUtf8Literal(isolate, "install(flags: SharedArrayBuffer, slot: number, limitBytes: number)")));
    return;
  }
  auto flags = info[0].As<v8::SharedArrayBuffer>()->GetBackingStore();
  size_t slot = info[1].As<v8::Uint32>()->Value();
  if ((slot + 1) * sizeof(int32_t) > flags->ByteLength()) {
    isolate->ThrowException(
        v8::Exception::RangeError(v8::String::NewFromUtf8Literal(isolate, "The slot is outside the flags")));
    return;
  }
  auto* guard = new Guard{isolate,
                          node::GetCurrentEnvironment(isolate->GetCurrentContext()),
                          flags,
                          slot,
                          static_cast<size_t>(info[2].As<v8::Number>()->Value()),
                          false,
                          false};
  StayLoaded();
  isolate->AddGCEpilogueCallback(AfterGc, guard);
  isolate->AddNearHeapLimitCallback(NearHardLimit, guard);
  node::AddEnvironmentCleanupHook(isolate, Remove, guard);
}

}  // namespace

NODE_MODULE_INIT() { NODE_SET_METHOD(exports, "install", Install); }
