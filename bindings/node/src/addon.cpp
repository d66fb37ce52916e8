// SPDX-License-Identifier: MIT OR Apache-2.0
// The Node package's native part: one Node-API translation unit over the C API
// (include/cuzk/c/cuzk_prover.h, libcuzk_prover). It stays thin on purpose: argument shapes,
// snarkjs's object forms and the error class live in lib/index.js, which calls only what is here.
//
// Every call that reads a key, proves or verifies runs on libuv's thread pool (Napi::AsyncWorker)
// and settles a promise, so the event loop keeps running during a proof and nothing is left to
// keep the process alive once the promise has settled. A C API error is not a rejection here: the
// promise resolves with { status, message } and lib/index.js turns a non-zero status into a
// CuzkError, so that the error class is defined in one place.
//
// Buffers handed in (a zkey or a witness as a Uint8Array) are held by a reference until the worker
// has finished, and are read in place, not copied: the caller must not change them during the call
// (docs/NODE.md).
#include <napi.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/c/cuzk_prover.h"

namespace {

constexpr unsigned long long message_capacity = 1024;

/// A zkey or a witness as the C API takes it: a path (zkey only) or bytes held alive by a reference.
struct input_bytes {
    std::string path;
    const void* data = nullptr;
    unsigned long long size = 0;
    Napi::Reference<Napi::Value> keep;

    bool is_path() const { return data == nullptr && !path.empty(); }
};

/// A string is a path; a Uint8Array (a Buffer included) is read in place.
input_bytes take_input(const Napi::Value& v) {
    input_bytes in;
    if (v.IsString()) {
        in.path = v.As<Napi::String>().Utf8Value();
    } else if (v.IsTypedArray() && v.As<Napi::TypedArray>().TypedArrayType() == napi_uint8_array) {
        auto a = v.As<Napi::Uint8Array>();
        in.data = a.Data();
        in.size = a.ByteLength();
        in.keep = Napi::Persistent(v);
        // An empty array has no data pointer; a non-null one makes "bytes" unambiguous, and the
        // C API then reports the empty input as what it is (a malformed zkey or witness).
        static const unsigned char empty = 0;
        if (in.data == nullptr) in.data = &empty;
    } else {
        throw Napi::TypeError::New(v.Env(), "cuzk addon: expected a path string or a Uint8Array");
    }
    return in;
}

uint32_t get_u32(const Napi::Object& o, const char* key, uint32_t dflt) {
    Napi::Value v = o.Get(key);
    return v.IsNumber() ? v.As<Napi::Number>().Uint32Value() : dflt;
}

int32_t get_i32(const Napi::Object& o, const char* key, int32_t dflt) {
    Napi::Value v = o.Get(key);
    return v.IsNumber() ? v.As<Napi::Number>().Int32Value() : dflt;
}

/// Options as lib/index.js passes them: numbers already checked for type and sign there (the C API
/// checks the ranges and names the field it refuses). A byte count may be a Number or a BigInt.
cuzk_prover_options take_options(const Napi::Value& v) {
    cuzk_prover_options opt;
    cuzk_prover_options_init(&opt);
    if (!v.IsObject()) return opt;
    const auto o = v.As<Napi::Object>();
    opt.backend = get_i32(o, "backend", opt.backend);
    opt.verify = get_i32(o, "verify", opt.verify);
    opt.threads = get_u32(o, "threads", opt.threads);
    opt.gpu_device = get_i32(o, "gpuDevice", opt.gpu_device);
    opt.max_concurrent_proofs = get_u32(o, "maxConcurrentProofs", opt.max_concurrent_proofs);
    Napi::Value vram = o.Get("vramBudgetBytes");
    if (vram.IsBigInt()) {
        bool lossless = true;
        opt.vram_budget_bytes = vram.As<Napi::BigInt>().Uint64Value(&lossless);
    } else if (vram.IsNumber()) {
        opt.vram_budget_bytes = static_cast<unsigned long long>(vram.As<Napi::Number>().DoubleValue());
    }
    return opt;
}

Napi::Object status_object(Napi::Env env, int status, const std::string& message) {
    Napi::Object r = Napi::Object::New(env);
    r.Set("status", Napi::Number::New(env, status));
    r.Set("message", Napi::String::New(env, message));
    return r;
}

std::string message_of(const std::vector<char>& buf) { return std::string(buf.data()); }

/// Creates a resident prover from a path or bytes; *out is NULL on failure.
int create_prover(cuzk_prover** out, const input_bytes& zkey, const cuzk_prover_options& opt, std::vector<char>& err) {
    if (zkey.is_path())
        return cuzk_groth16_prover_create_zkey_file_with_options(out, zkey.path.c_str(), &opt, err.data(), err.size());
    return cuzk_groth16_prover_create_with_options(out, zkey.data, zkey.size, &opt, err.data(), err.size());
}

/// Proves with a resident prover into buffers sized from its info (which always suffice).
int prove_with(cuzk_prover* p, const input_bytes& wtns, std::string& proof, std::string& pub, std::vector<char>& err) {
    cuzk_prover_info info{};
    info.struct_size = sizeof info;
    int rc = cuzk_groth16_prover_get_info(p, &info, err.data(), err.size());
    if (rc != CUZK_PROVER_OK) return rc;
    std::vector<char> proof_buf(info.proof_size), pub_buf(info.public_size);
    unsigned long long proof_size = proof_buf.size(), pub_size = pub_buf.size();
    rc = cuzk_groth16_prover_prove(p, wtns.data, wtns.size, proof_buf.data(), &proof_size, pub_buf.data(), &pub_size,
                                   err.data(), err.size());
    if (rc != CUZK_PROVER_OK) return rc;
    proof.assign(proof_buf.data(), proof_size);
    pub.assign(pub_buf.data(), pub_size);
    return rc;
}

// ---- the resident prover as a JS object ----------------------------------------------------

class native_prover : public Napi::ObjectWrap<native_prover> {
public:
    static Napi::FunctionReference* constructor;

    static Napi::Function define(Napi::Env env) {
        return DefineClass(env, "NativeProver",
                           {InstanceMethod("prove", &native_prover::prove), InstanceMethod("verify", &native_prover::verify),
                            InstanceMethod("info", &native_prover::info), InstanceMethod("close", &native_prover::close),
                            InstanceAccessor("closed", &native_prover::closed, nullptr)});
    }

    // Constructed only by the create worker, with the handle as an External.
    explicit native_prover(const Napi::CallbackInfo& cb) : Napi::ObjectWrap<native_prover>(cb) {
        if (cb.Length() != 1 || !cb[0].IsExternal())
            throw Napi::TypeError::New(cb.Env(), "NativeProver is made by the addon's create()");
        handle_ = cb[0].As<Napi::External<cuzk_prover>>().Data();
    }

    // A prover that is garbage-collected unclosed is freed here. No worker can be running: each
    // holds a reference to this object.
    ~native_prover() override { cuzk_groth16_prover_destroy(std::exchange(handle_, nullptr)); }

    cuzk_prover* handle() const { return handle_; }
    bool is_closed() const { return closing_ || handle_ == nullptr; }
    void begin_call() { ++in_flight_; }
    // Called on the main thread when a worker settles: a close() that came while calls were in
    // flight frees the key once the last one is done.
    void end_call() {
        if (--in_flight_ == 0 && closing_) cuzk_groth16_prover_destroy(std::exchange(handle_, nullptr));
    }

private:
    Napi::Value prove(const Napi::CallbackInfo& cb);
    Napi::Value verify(const Napi::CallbackInfo& cb);

    Napi::Value info(const Napi::CallbackInfo& cb) {
        Napi::Env env = cb.Env();
        if (is_closed()) return env.Null();
        cuzk_prover_info i{};
        i.struct_size = sizeof i;
        std::vector<char> err(message_capacity);
        if (cuzk_groth16_prover_get_info(handle_, &i, err.data(), err.size()) != CUZK_PROVER_OK)
            throw Napi::Error::New(env, message_of(err));
        Napi::Object o = Napi::Object::New(env);
        auto num = [&](const char* k, double v) { o.Set(k, Napi::Number::New(env, v)); };
        o.Set("curve", Napi::String::New(env, i.curve_name ? i.curve_name : ""));
        o.Set("backend", Napi::String::New(env, i.backend == CUZK_PROVER_BACKEND_GPU ? "gpu" : "cpu"));
        o.Set("verify", Napi::Boolean::New(env, i.verify != 0));
        num("threads", i.threads);
        num("maxConcurrentProofs", i.max_concurrent_proofs);
        num("nVars", double(i.n_vars));
        num("nPublic", double(i.n_public));
        num("domainSize", double(i.domain_size));
        num("proofSize", double(i.proof_size));
        num("publicSize", double(i.public_size));
        num("hostKeyBytes", double(i.host_key_bytes));
        num("hostProofBytes", double(i.host_proof_bytes));
        if (i.gpu_device >= 0) num("gpuDevice", i.gpu_device);
        else o.Set("gpuDevice", env.Null());
        o.Set("keyResidentOnGpu", Napi::Boolean::New(env, i.key_resident_on_gpu != 0));
        num("vramBudgetBytes", double(i.vram_budget_bytes));
        num("deviceKeyBytes", double(i.device_key_bytes));
        num("deviceProofBytes", double(i.device_proof_bytes));
        o.Set("note", Napi::String::New(env, i.note ? i.note : ""));
        return o;
    }

    Napi::Value close(const Napi::CallbackInfo& cb) {
        if (!closing_) {
            closing_ = true;
            if (in_flight_ == 0) cuzk_groth16_prover_destroy(std::exchange(handle_, nullptr));
        }
        return cb.Env().Undefined();
    }

    Napi::Value closed(const Napi::CallbackInfo& cb) { return Napi::Boolean::New(cb.Env(), is_closed()); }

    cuzk_prover* handle_ = nullptr;
    unsigned in_flight_ = 0;  // main thread only
    bool closing_ = false;
};

Napi::FunctionReference* native_prover::constructor = nullptr;

// ---- workers ------------------------------------------------------------------------------

/// A worker that settles a promise and never rejects it for a C API error (see the top).
class settling_worker : public Napi::AsyncWorker {
public:
    settling_worker(Napi::Env env, const char* name)
        : Napi::AsyncWorker(env, name), deferred_(Napi::Promise::Deferred::New(env)), err_(message_capacity, '\0') {}
    Napi::Promise promise() const { return deferred_.Promise(); }

protected:
    void OnError(const Napi::Error& e) override { deferred_.Reject(e.Value()); }

    Napi::Promise::Deferred deferred_;
    std::vector<char> err_;
    int status_ = CUZK_PROVER_ERROR;
};

/// Reads a key and makes a resident prover; resolves with { status, message, prover }.
class create_worker : public settling_worker {
public:
    create_worker(Napi::Env env, input_bytes zkey, cuzk_prover_options opt)
        : settling_worker(env, "cuzk:create"), zkey_(std::move(zkey)), opt_(opt) {}
    ~create_worker() override { cuzk_groth16_prover_destroy(handle_); }  // only if not handed over

    void Execute() override { status_ = create_prover(&handle_, zkey_, opt_, err_); }

    void OnOK() override {
        Napi::Env env = Env();
        Napi::Object r = status_object(env, status_, message_of(err_));
        if (status_ == CUZK_PROVER_OK) {
            Napi::Object p = native_prover::constructor->New({Napi::External<cuzk_prover>::New(env, handle_)});
            handle_ = nullptr;  // owned by the JS object now
            r.Set("prover", p);
        }
        deferred_.Resolve(r);
    }

private:
    input_bytes zkey_;
    cuzk_prover_options opt_;
    cuzk_prover* handle_ = nullptr;
};

/// A call on a resident prover, from its worker's construction to end() on the main thread: the
/// JS object kept alive and the call counted (close() frees the key only after it). Empty for a
/// call without a resident prover.
class resident_call {
public:
    resident_call(native_prover* p, Napi::Object object) : p_(p) {
        if (!p_) return;
        keep_ = Napi::Persistent(object);
        handle_ = p_->handle();
        p_->begin_call();
    }
    cuzk_prover* handle() const { return handle_; }
    void end() {
        if (p_) p_->end_call();
    }

private:
    native_prover* p_;
    Napi::ObjectReference keep_;
    cuzk_prover* handle_ = nullptr;
};

/// One proof: with a resident prover (held by a reference) or, when none is given, a prover made
/// for this call and freed after it. Resolves with { status, message, proof, public } (texts).
class prove_worker : public settling_worker {
public:
    prove_worker(Napi::Env env, native_prover* resident, Napi::Object resident_object, input_bytes zkey,
                 cuzk_prover_options opt, input_bytes wtns)
        : settling_worker(env, "cuzk:prove"), resident_(resident, resident_object), zkey_(std::move(zkey)), opt_(opt),
          wtns_(std::move(wtns)) {}

    void Execute() override {
        if (cuzk_prover* h = resident_.handle()) {
            status_ = prove_with(h, wtns_, proof_, pub_, err_);
            return;
        }
        cuzk_prover* p = nullptr;
        status_ = create_prover(&p, zkey_, opt_, err_);
        if (status_ == CUZK_PROVER_OK) status_ = prove_with(p, wtns_, proof_, pub_, err_);
        cuzk_groth16_prover_destroy(p);
    }

    void OnOK() override {
        Napi::Env env = Env();
        resident_.end();
        Napi::Object r = status_object(env, status_, message_of(err_));
        if (status_ == CUZK_PROVER_OK) {
            r.Set("proof", Napi::String::New(env, proof_));
            r.Set("public", Napi::String::New(env, pub_));
        }
        deferred_.Resolve(r);
    }

    void OnError(const Napi::Error& e) override {
        resident_.end();
        settling_worker::OnError(e);
    }

private:
    resident_call resident_;
    input_bytes zkey_;
    cuzk_prover_options opt_;
    input_bytes wtns_;
    std::string proof_, pub_;
};

/// cuzk_groth16_verify, or cuzk_groth16_prover_verify with a resident prover's key. Resolves with
/// { status, message } where status is a CUZK_VERIFIER_* code.
class verify_worker : public settling_worker {
public:
    verify_worker(Napi::Env env, native_prover* resident, Napi::Object resident_object, std::string proof,
                  std::string pub, std::string vk)
        : settling_worker(env, "cuzk:verify"), resident_(resident, resident_object), proof_(std::move(proof)),
          pub_(std::move(pub)), vk_(std::move(vk)) {}

    void Execute() override {
        cuzk_prover* h = resident_.handle();
        status_ = h ? cuzk_groth16_prover_verify(h, proof_.c_str(), pub_.c_str(), err_.data(), err_.size())
                          : cuzk_groth16_verify(proof_.c_str(), pub_.c_str(), vk_.c_str(), err_.data(), err_.size());
    }

    void OnOK() override {
        resident_.end();
        deferred_.Resolve(status_object(Env(), status_, message_of(err_)));
    }

    void OnError(const Napi::Error& e) override {
        resident_.end();
        settling_worker::OnError(e);
    }

private:
    resident_call resident_;
    std::string proof_, pub_, vk_;
};

/// A settled { status, message } promise without a worker, for calls refused before any work.
Napi::Value settled(Napi::Env env, int status, const std::string& message) {
    auto d = Napi::Promise::Deferred::New(env);
    d.Resolve(status_object(env, status, message));
    return d.Promise();
}

Napi::Value native_prover::prove(const Napi::CallbackInfo& cb) {
    Napi::Env env = cb.Env();
    if (is_closed()) return settled(env, CUZK_PROVER_ERROR_INVALID_ARGUMENT, "the prover is closed");
    auto* w = new prove_worker(env, this, Value(), input_bytes{}, cuzk_prover_options{}, take_input(cb[0]));
    w->Queue();
    return w->promise();
}

Napi::Value native_prover::verify(const Napi::CallbackInfo& cb) {
    Napi::Env env = cb.Env();
    if (is_closed()) return settled(env, CUZK_VERIFIER_ERROR, "the prover is closed");
    auto* w = new verify_worker(env, this, Value(), cb[0].As<Napi::String>().Utf8Value(),
                                cb[1].As<Napi::String>().Utf8Value(), std::string());
    w->Queue();
    return w->promise();
}

// ---- module functions ---------------------------------------------------------------------

// create(zkey, options) -> Promise<{ status, message, prover? }>
Napi::Value create(const Napi::CallbackInfo& cb) {
    auto* w = new create_worker(cb.Env(), take_input(cb[0]), take_options(cb[1]));
    w->Queue();
    return w->promise();
}

// prove(zkey, wtns, options) -> Promise<{ status, message, proof?, public? }>, a prover for one call.
Napi::Value prove_once(const Napi::CallbackInfo& cb) {
    auto* w = new prove_worker(cb.Env(), nullptr, Napi::Object(), take_input(cb[0]), take_options(cb[2]),
                               take_input(cb[1]));
    w->Queue();
    return w->promise();
}

// verify(proofJson, publicJson, vkJson) -> Promise<{ status, message }>
Napi::Value verify(const Napi::CallbackInfo& cb) {
    auto* w = new verify_worker(cb.Env(), nullptr, Napi::Object(), cb[0].As<Napi::String>().Utf8Value(),
                                cb[1].As<Napi::String>().Utf8Value(), cb[2].As<Napi::String>().Utf8Value());
    w->Queue();
    return w->promise();
}

Napi::Value error_name(const Napi::CallbackInfo& cb) {
    return Napi::String::New(cb.Env(), cuzk_prover_error_name(cb[0].As<Napi::Number>().Int32Value()));
}

Napi::Value error_string(const Napi::CallbackInfo& cb) {
    return Napi::String::New(cb.Env(), cuzk_prover_error_string(cb[0].As<Napi::Number>().Int32Value()));
}

Napi::Value capabilities(const Napi::CallbackInfo& cb) {
    Napi::Env env = cb.Env();
    cuzk_prover_capabilities c{};
    c.struct_size = sizeof c;
    if (cuzk_prover_get_capabilities(&c) != CUZK_PROVER_OK) throw Napi::Error::New(env, "cuzk_prover_get_capabilities failed");
    Napi::Object o = Napi::Object::New(env);
    Napi::Array curves = Napi::Array::New(env);
    uint32_t n = 0;
    if (c.curves & CUZK_PROVER_CURVE_BN254) curves.Set(n++, Napi::String::New(env, "bn128"));
    if (c.curves & CUZK_PROVER_CURVE_BLS12_381) curves.Set(n++, Napi::String::New(env, "bls12381"));
    o.Set("curves", curves);
    o.Set("gpuBackend", Napi::Boolean::New(env, c.gpu_backend != 0));
    o.Set("gpuCount", Napi::Number::New(env, c.gpu_count));
    o.Set("openmp", Napi::Boolean::New(env, c.openmp != 0));
    o.Set("maxThreads", Napi::Number::New(env, c.max_threads));
    o.Set("x86Adx", Napi::Boolean::New(env, c.x86_adx != 0));
    o.Set("precompiledInstances", Napi::Boolean::New(env, c.precompiled_instances != 0));
    o.Set("buildOptions", Napi::String::New(env, c.build_options ? c.build_options : ""));
    return o;
}

Napi::Object init(Napi::Env env, Napi::Object exports) {
    Napi::Function cls = native_prover::define(env);
    // One constructor reference for the process's main isolate; the package is not meant for
    // worker_threads (the C library's thread pools are per process anyway).
    native_prover::constructor = new Napi::FunctionReference(Napi::Persistent(cls));
    exports.Set("create", Napi::Function::New(env, create));
    exports.Set("prove", Napi::Function::New(env, prove_once));
    exports.Set("verify", Napi::Function::New(env, verify));
    exports.Set("errorName", Napi::Function::New(env, error_name));
    exports.Set("errorString", Napi::Function::New(env, error_string));
    exports.Set("capabilities", Napi::Function::New(env, capabilities));
    exports.Set("version", Napi::String::New(env, cuzk_prover_version()));
    exports.Set("abiVersion", Napi::Number::New(env, cuzk_prover_abi_version()));
    exports.Set("maxThreads", Napi::Number::New(env, CUZK_PROVER_MAX_THREADS));
    return exports;
}

}  // namespace

NODE_API_MODULE(cuzk, init)
