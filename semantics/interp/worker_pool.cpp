// Threads kept between launches (worker_pool.hpp). Starting a thread per
// launch cost the caller about 55 us a thread (clone, the new thread's
// stack and its malloc arena, which glibc trims again when the thread
// ends: a madvise per thread and launch), and the new thread began its
// first CTA 70-190 us after the launch's workers were set up (bench saxpy,
// 2 jobs, steady_clock probes, load 13-19).
#include "semantics/interp/worker_pool.hpp"

#include <unistd.h>

#include <condition_variable>
#include <exception>
#include <latch>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace ptxcheck::interp {

namespace {

class Pool {
 public:
  // The pool of this process: a child made by fork() has none of its
  // parent's threads and starts a pool of its own. Never destroyed: its
  // idle threads wait until the process ends.
  static Pool& get() {
    static std::mutex mu;
    static Pool* pool = nullptr;
    std::lock_guard<std::mutex> g(mu);
    if (!pool || pool->pid_ != ::getpid()) pool = new Pool;  // (a parent's pool is left to its threads)
    return *pool;
  }

  // Hands job(i) to an idle thread (made when none is); false when no
  // thread could be made.
  bool start(const std::function<void(unsigned)>& job, unsigned i, std::latch& done) {
    Thread* t = nullptr;
    {
      std::lock_guard<std::mutex> g(mu_);
      if (!idle_.empty()) {
        t = idle_.back();
        idle_.pop_back();
      }
    }
    if (!t) {
      t = new Thread;
      try {
        std::thread(&Pool::loop, this, t).detach();
      } catch (const std::system_error&) {
        delete t;
        return false;
      }
    }
    {
      std::lock_guard<std::mutex> g(t->mu);
      t->job = &job;
      t->index = i;
      t->done = &done;
    }
    t->cv.notify_one();
    return true;
  }

 private:
  struct Thread {
    std::mutex mu;
    std::condition_variable cv;
    const std::function<void(unsigned)>* job = nullptr;
    unsigned index = 0;
    std::latch* done = nullptr;
  };

  void loop(Thread* t) {
    for (;;) {
      const std::function<void(unsigned)>* job;
      unsigned i;
      std::latch* done;
      {
        std::unique_lock<std::mutex> g(t->mu);
        t->cv.wait(g, [t] { return t->job != nullptr; });
        job = t->job;
        i = t->index;
        done = t->done;
        t->job = nullptr;
      }
      (*job)(i);
      // Idle again before the caller hears of it, so that its next call
      // finds this thread (the latch may be gone once counted down).
      {
        std::lock_guard<std::mutex> g(mu_);
        idle_.push_back(t);
      }
      done->count_down();
    }
  }

  const pid_t pid_ = ::getpid();
  std::mutex mu_;
  std::vector<Thread*> idle_;
};

}  // namespace

void run_jobs(unsigned n, const std::function<void(unsigned)>& job) {
  if (n == 0) return;
  std::latch done(n - 1);
  unsigned started = 1;  // jobs [1, started) run on pool threads
  Pool& pool = Pool::get();
  while (started < n && pool.start(job, started, done)) ++started;
  job(0);
  for (unsigned i = started; i < n; ++i) {
    job(i);
    done.count_down();
  }
  done.wait();
}

}  // namespace ptxcheck::interp
